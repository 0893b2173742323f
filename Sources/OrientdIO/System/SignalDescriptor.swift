import CLinux
import Glibc
import SystemPackage

/// Signals as readable data: the daemon blocks them and reads them from a signalfd in its
/// poll loop, so a handler never runs at an arbitrary point and stopping is an ordinary
/// branch of the loop (state persisted, subscribers told, hooks ended).
///
/// `block` must run on the main thread before any other thread starts: threads inherit
/// the mask, and a signal delivered to a thread that does not block it would take its
/// default action (for SIGTERM, death without cleanup).
public struct SignalDescriptor: ~Copyable {
    public let descriptor: FileDescriptor
    public let signals: [Int32]

    public static func block(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return set
    }

    /// Blocks `signals` in this thread and opens a descriptor that reads them.
    public init(_ signals: [Int32]) throws(Errno) {
        var set = Self.block(signals)
        descriptor = try FileDescriptor.signalDescriptor(for: &set, flags: Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        self.signals = signals
    }

    /// The signals that arrived since the last call.
    public func read() -> [Int32] {
        var out: [Int32] = []
        var info = signalfd_siginfo()
        // Until EAGAIN: the descriptor is non-blocking and holds whole records only.
        while (try? withUnsafeMutableBytes(of: &info) { try descriptor.read(into: $0) }) == MemoryLayout<signalfd_siginfo>.size {
            out.append(Int32(info.ssi_signo))
        }
        return out
    }

    deinit { try? descriptor.close() }
}
