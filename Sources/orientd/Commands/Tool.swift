import Glibc
import OrientdIO
import SystemPackage

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
        // The pipe's ends while they are open: the write end until the child has its copy,
        // the read end until the tool closes its output.
        var readEnd: FileDescriptor?
        var writeEnd: FileDescriptor?
        if capture {
            guard let ends = try? FileDescriptor.pipe(options: .closeOnExec) else {
                throw Failure(description: "cannot run \(named): no pipe")
            }
            (readEnd, writeEnd) = ends
        }
        defer {
            try? readEnd?.close()
            try? writeEnd?.close()
        }
        let child: ChildProcess
        do {
            // A pipe end marked close-on-exec is still dup2'd onto the child's stdout.
            child = try ChildProcess(arguments: arguments, environment: [], role: writeEnd.map { .tool(output: $0) } ?? .hook)
        } catch {
            throw Failure(description: "cannot run \(named): \(error)")
        }
        var output: [UInt8] = []
        try? writeEnd?.close()
        writeEnd = nil
        let deadline = Double(seconds) + MonotonicClock.now
        while child.reap() == nil || readEnd != nil {
            let left = deadline - MonotonicClock.now
            if left <= 0 {
                child.kill()
                throw Failure(description: "\(named) did not end within \(seconds) s")
            }
            var watched = PollSet<Watched>()
            watched.watch(child.descriptor, for: .readable, as: .exit)
            if let readEnd { watched.watch(readEnd, for: .readable, as: .output) }
            let ready = (try? watched.wait(timeout: left)) ?? []
            if let end = readEnd, ready.contains(where: { $0.slot == .output }) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = (try? chunk.withUnsafeMutableBytes { try end.read(into: $0) }) ?? 0
                if n > 0 {
                    output += chunk[..<n]
                } else {
                    try? end.close()
                    readEnd = nil
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

    /// What a descriptor in `run`'s poll stands for.
    private enum Watched { case exit, output }
}
