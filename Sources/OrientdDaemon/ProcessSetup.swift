import CLinux
import Glibc
import OrientdIO

/// What the daemon sets up for the whole process, before any thread starts:
/// - SIGTERM, SIGINT and SIGHUP blocked and read as data (`SignalDescriptor`): threads
///   inherit the mask, so this comes first;
/// - SIGPIPE ignored: a reader that leaves is an EPIPE to handle, not the end of the daemon;
/// - the descriptor limit raised to its maximum: each client holds one;
/// - the control socket, made under a tightened umask, which is process-wide;
/// - one malloc arena for all threads: glibc gives each thread that allocates an arena of
///   its own, and the daemon's three cost 164 KiB of touched memory for a few small
///   allocations a second (docs/development.md "Memory").
struct ProcessSetup: ~Copyable {
    let signals: SignalDescriptor
    let listener: UnixListener?

    init(configuration: Daemon.Configuration) throws(Daemon.DaemonError) {
        // Into locals first: a noncopyable member cannot be left half made by a throw.
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        } catch {
            throw Daemon.DaemonError(status: .systemError, message: "cannot set up the control loop: signals: \(error)")
        }
        signal(SIGPIPE, SIG_IGN)
        mallopt(M_ARENA_MAX, 1)
        Self.raiseDescriptorLimit()
        var listener: UnixListener?
        if let path = configuration.socketPath {
            do {
                listener = try UnixListener(path: path, mode: configuration.socketMode, group: configuration.socketGroup)
            } catch {
                throw Daemon.DaemonError(status: .cannotCreate, message: error.description)
            }
        }
        self.signals = signals
        self.listener = listener
    }

    /// Gives back to the kernel what only the start needed (the command line's parsing,
    /// discovery, the sensor's set-up): once, when the first orientation is out. What it
    /// allocated and freed; the code and constants it alone ran over; the main thread's
    /// stack below the control loop (`ResidentMemory`).
    func returnStartMemory() {
        let mappings = ResidentMemory.mappings()
        ResidentMemory.pageOutFiles(mappings)
        if let executable = ResidentMemory.executable() { ResidentMemory.unmapExecutable(mappings, executable: executable) }
        ResidentMemory.releaseUnusedStack(mappings)
        malloc_trim(0)
    }

    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
