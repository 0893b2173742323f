import CLinux
import Glibc
import SystemPackage

/// A child process: started with posix_spawnp (no shell), watched through a pidfd that
/// a poll loop waits on, and reaped without blocking.
///
/// The child gets what a well-behaved program expects whatever its parent changed for
/// itself: an empty signal mask, and SIGPIPE and the signals the parent handles at their
/// default actions.
public final class ChildProcess {
    public let pid: pid_t
    /// Readable when the process has exited.
    public let descriptor: FileDescriptor
    public private(set) var status: Int32?
    public let role: Role

    /// What the child is to its parent.
    public enum Role: Equatable, Sendable {
        /// A daemon's hook: standard input from /dev/null, standard output sent to the
        /// daemon's standard error (never into the event stream on stdout), and a process
        /// group of its own, so a timeout ends the whole hook, pipelines and sub-shells
        /// included.
        case hook
        /// A command run for the user (`ctl request … -- command`): the parent's standard
        /// streams and process group, so it reads the terminal and Ctrl-C reaches it.
        case foreground
        /// A tool run for its output (`orientd doctor` asking systemctl): standard input
        /// from /dev/null, standard output and error to `output` (a pipe's end the caller
        /// reads), so what it says reaches the caller's message, not the terminal.
        case tool(output: FileDescriptor)
    }

    public init(arguments: [String], environment: [(name: String, value: String)], role: Role = .hook) throws(Errno) {
        precondition(!arguments.isEmpty)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch role {
        case .hook:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        case .tool(let output):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1)
            posix_spawn_file_actions_adddup2(&actions, output.rawValue, 2)
        case .foreground:
            break
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if role == .hook {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let names = Set(environment.map(\.name))
        var entries: [String] = []
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = text.prefix { $0 != "=" }
            if !names.contains(String(name)) { entries.append(text) }
            p += 1
        }
        entries += environment.map { "\($0.name)=\($0.value)" }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = entries.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let r = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard r == 0 else { throw Errno(rawValue: r) }
        pid = child
        self.role = role
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.processDescriptor(for: child)
        } catch {
            // Without a pidfd (a kernel before 5.3) the process cannot be watched; end it
            // rather than leave it unreaped.
            Glibc.kill(child, SIGKILL)
            var s: Int32 = 0
            waitpid(child, &s, 0)
            throw error
        }
        _ = fcntl(fd.rawValue, F_SETFD, FD_CLOEXEC)
        descriptor = fd
    }

    /// Reaps the process if it has exited; the raw wait status.
    public func reap() -> Int32? {
        if let status { return status }
        var s: Int32 = 0
        if waitpid(pid, &s, WNOHANG) == pid {
            status = s
            return s
        }
        return nil
    }

    /// Signals the process: a hook's whole process group, a foreground command alone
    /// (its group is its parent's).
    public func kill(_ signal: Int32 = SIGKILL) {
        guard status == nil else { return }
        _ = Glibc.kill(role == .hook ? -pid : pid, signal)
    }

    deinit {
        if status == nil {
            kill()
            var s: Int32 = 0
            waitpid(pid, &s, 0)
        }
        try? descriptor.close()
    }
}

extension Int32 {
    /// A wait status decoded: exit status, or the signal that ended the process.
    public var waitOutcome: (exit: Int32?, signal: Int32?) {
        let low = self & 0x7f
        if low == 0 { return ((self >> 8) & 0xff, nil) }
        return (nil, low)
    }
}
