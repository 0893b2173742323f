import Foundation

/// The programs a test starts for its counterpart (a compositor, a bus, a notification
/// daemon) and must not outlive it: started here, and all killed and reaped by `killAll`
/// (SIGKILL, newest first: they inherit the test thread's signal mask, which blocks
/// SIGTERM, and sway does not unblock it; measured: a hang).
public final class ChildProcesses {
    public private(set) var processes: [Process] = []

    public init() {}

    /// Runs `process` and keeps it to be killed.
    public func start(_ process: Process) throws {
        try process.start()
        processes.append(process)
    }

    public func killAll() {
        for p in processes.reversed() where p.isRunning { Self.killTree(p.processIdentifier) }
        // Reaped here rather than by waitUntilExit, which waits for Foundation to learn of
        // the exit from SIGCHLD: a signal mask can keep that from it, and it then spins for
        // ever (measured in CI: 19 min on a gnome-shell killed and left a zombie). A
        // process Foundation has reaped already is ECHILD here.
        for p in processes {
            var status: Int32 = 0
            while waitpid(p.processIdentifier, &status, 0) == -1 && errno == EINTR {}
        }
        processes = []
    }

    deinit { killAll() }

    /// SIGKILL to `pid` and to what it started, stopped first so that it starts nothing
    /// more: a child of a killed program (a fork that never reached its exec, a helper)
    /// would otherwise live on, orphaned (measured: gnome-shell's stuck forks, left from
    /// every CI run).
    public static func killTree(_ pid: pid_t) {
        kill(pid, SIGSTOP)
        for child in children(of: pid) { killTree(child) }
        kill(pid, SIGKILL)
    }

    /// The children of `pid`, as the kernel lists them for each of its threads.
    public static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return list.split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// Polls `probe` until it gives a value; after `seconds`, throws a failure naming
    /// `what`, with what `evidence` says (the programs' logs) to show why.
    public static func waitFor<T>(
        _ what: String, seconds: Double, every interval: Double = 0.1, evidence: () -> String = { "" }, _ probe: () throws -> T?
    ) throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = try? probe() { return value }
            usleep(useconds_t(interval * 1e6))
        }
        throw TimedOut(description: "timed out waiting for \(what); \(evidence())")
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var description: String
    }
}
