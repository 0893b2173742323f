import Foundation
import OrientdClient
import OrientdDaemon
import OrientdIO

/// A running `orientd` (run or replay) whose standard output is read line by line as it
/// comes, and whose standard input the test can write to, for tests that talk to the
/// daemon while it runs.
public final class DaemonProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = Guarded<[String]>([])
    private let errorText = Guarded<String>("")
    private let readers = DispatchGroup()
    /// How many output lines have been checked against the schema (`PrintedLines`).
    private let checkedLines = Guarded(0)
    private let name: String

    /// `outputToJournal`: standard output looks like the journal to the daemon, as under
    /// systemd: `JOURNAL_STREAM` names the pipe's device and inode (the test still reads
    /// what it writes).
    public init(_ arguments: [String], environment: [String: String]? = nil, outputToJournal: Bool = false) throws {
        let process = Process()
        process.executableURL = OrientdProcess.executable
        process.arguments = arguments
        name = "orientd \(arguments.joined(separator: " "))"
        let out = Pipe()
        var environment = environment
        if outputToJournal {
            var info = stat()
            fstat(out.fileHandleForWriting.fileDescriptor, &info)
            environment = (environment ?? [:]).merging(["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"]) { $1 }
        }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.start()
        self.process = process
        input = inPipe.fileHandleForWriting
        let outHandle = out.fileHandleForReading
        let errHandle = err.fileHandleForReading
        // Each pipe is read on a thread of its own: a read blocks until the daemon writes,
        // and blocked blocks on Dispatch's global queues starve its small pool (two cores:
        // every test's daemon stalled ~60 s in CI until an earlier one exited).
        reader {
            var pending = Data()
            while case let chunk = outHandle.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0a) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    self.lines.withLock { $0.append(line) }
                }
            }
        }
        reader {
            while case let chunk = errHandle.availableData, !chunk.isEmpty {
                self.errorText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }

    /// Runs `body` on a new thread, counted in `readers` until it returns.
    private func reader(_ body: @escaping @Sendable () -> Void) {
        readers.enter()
        Thread { [readers] in
            body()
            readers.leave()
        }.start()
    }

    public var output: [String] {
        let output = lines.withLock { $0 }
        checkLines(output)
        return output
    }

    /// Checks the lines not checked yet, on the test's own task (so a bad line fails the
    /// test that is running): whenever the test looks at the output, at the exit, and at
    /// the end of the test that made the daemon.
    private func checkLines(_ output: [String]) {
        let new = checkedLines.withLock { checked -> ArraySlice<String> in
            defer { checked = max(checked, output.count) }
            return checked < output.count ? output[checked...] : []
        }
        if !new.isEmpty { PrintedLines.check(new, from: name) }
    }
    public var standardError: String { errorText.withLock { $0 } }
    public var pid: Int32 { process.processIdentifier }

    public func write(_ text: String) {
        input.write(Data(text.utf8))
    }

    public func closeInput() {
        try? input.close()
    }

    /// Waits until some output line satisfies `match`; returns it, or nil after `timeout`
    /// (a wait: `TestTime` scales it).
    @discardableResult
    public func waitForLine(timeout: Double = 10, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while Date() < deadline {
            if let line = output.first(where: match) { return line }
            usleep(10_000)
        }
        return nil
    }

    /// Waits until stderr contains `text`.
    public func waitForError(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while Date() < deadline {
            if standardError.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the exit; the status (or nil after `timeout`, when it is killed).
    public func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForEnd()
            return nil
        }
        readers.wait()
        checkLines(lines.withLock { $0 })
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForEnd()
        }
        checkLines(lines.withLock { $0 })
    }
}

/// A temporary socket path short enough for sockaddr_un.
public func temporarySocketPath() -> String {
    "/tmp/orientd-test-\(UUID().uuidString.prefix(8)).sock"
}

extension ControlClient {
    /// Sends a request and returns its reply line (without the newline); the events a
    /// subscribed client gets before it are passed over.
    /// Every line is checked against the schema (`PrintedLines`).
    public func request(_ line: String) throws -> String {
        try send(line)
        while let reply = try readLine(timeout: TestTime.wait(10)) {
            let text = String(decoding: reply.dropLast(), as: UTF8.self)
            PrintedLines.check([text], from: "the control socket (after '\(line)')")
            if text.hasPrefix(#"{"reply""#) { return text }
        }
        return ""
    }

    /// The lines that arrive within `seconds` (without their newlines), checked against
    /// the schema (`PrintedLines`).
    public func lines(for seconds: Double) throws -> [String] {
        var out: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while case let left = deadline.timeIntervalSinceNow, left > 0 {
            do {
                guard let line = try readLine(timeout: left) else { break }
                out.append(String(decoding: line.dropLast(), as: UTF8.self))
            } catch {
                if error == .timedOut { break }
                throw error
            }
        }
        PrintedLines.check(out, from: "the control socket")
        return out
    }

    /// Connects, retrying while the daemon is starting.
    public static func waitingFor(_ path: String, timeout: Double = 10) throws -> ControlClient {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while true {
            do {
                return try ControlClient(path: path)
            } catch {
                if Date() > deadline { throw error }
                usleep(20_000)
            }
        }
    }
}
