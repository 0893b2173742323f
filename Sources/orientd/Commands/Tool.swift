import Glibc
import OrientdDaemon
import OrientdIO

/// Runs a system tool to its end (systemd-hwdb, udevadm, systemctl) for a command that
/// needs one: at most `seconds`, its standard output returned when asked for.
enum Tool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The tool's standard output and error (empty unless `capture`, when both go to the
    /// caller's standard error), when it exits with status 0.
    @discardableResult
    static func run(_ arguments: [String], capture: Bool = false, seconds: Int32 = 60) throws(Failure) -> String {
        let named = arguments.joined(separator: " ")
        var ends: [Int32] = [-1, -1]
        if capture {
            guard pipe(&ends) == 0 else { throw Failure(description: "cannot run \(named): no pipe") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        defer { for end in ends where end >= 0 { close(end) } }
        let child: ChildProcess
        do {
            // A pipe end marked close-on-exec is still dup2'd onto the child's stdout.
            child = try ChildProcess(arguments: arguments, environment: [], role: capture ? .tool(output: ends[1]) : .hook)
        } catch {
            throw Failure(description: "cannot run \(named): \(error)")
        }
        var output: [UInt8] = []
        if capture {
            close(ends[1])
            ends[1] = -1
        }
        let deadline = Double(seconds) + Pacer.monotonicNow()
        while child.reap() == nil || (capture && ends[0] >= 0) {
            let left = deadline - Pacer.monotonicNow()
            if left <= 0 {
                child.kill()
                throw Failure(description: "\(named) did not end within \(seconds) s")
            }
            var watched = [pollfd(fd: child.descriptor, events: Int16(POLLIN), revents: 0)]
            if capture && ends[0] >= 0 { watched.append(pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)) }
            _ = poll(&watched, nfds_t(watched.count), Int32(left * 1000))
            if watched.count > 1 && watched[1].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(ends[0], &chunk, chunk.count)
                if n > 0 {
                    output += chunk[..<n]
                } else if n == 0 || errno != EINTR {
                    close(ends[0])
                    ends[0] = -1
                }
            }
        }
        let outcome = (child.reap() ?? 0).waitOutcome
        let text = String(decoding: output, as: UTF8.self)
        guard outcome.exit == 0 else {
            let said = text.split(separator: "\n").last.map { ": \($0)" } ?? ""
            throw Failure(
                description: "\(named) failed (\(outcome.exit.map { "exit status \($0)" } ?? "signal \(outcome.signal ?? 0)"))\(said)")
        }
        return text
    }
}
