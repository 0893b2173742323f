import Foundation
import OrientdCore

/// Runs the built `orientd` binary as a user would, capturing its streams.
public struct OrientdProcess {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
        /// Every stdout line decoded as a JSON object; nil if any line is not one.
        public var events: [[String: Any]]? {
            var out: [[String: Any]] = []
            for line in lines {
                guard let data = line.data(using: .utf8),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return nil }
                out.append(object)
            }
            return out
        }
    }

    /// The binary next to the test bundle: `swift test` builds it because the test target
    /// depends on it.
    public static let executable = built("orientd")
    /// The laboratory's program (`orientd-lab evaluate`, `simulate`), built beside it.
    public static let lab = built("orientd-lab")

    static func built(_ name: String) -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent(name).path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent(name)
    }

    /// Runs another program (found on PATH) the same way.
    public static func runShell(_ arguments: [String]) throws -> Result {
        try run(Array(arguments.dropFirst()), executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: [arguments[0]])
    }

    /// Runs it to its end; with `timeout`, it is sent SIGTERM after that many seconds (a
    /// daemon that runs until stopped). orientd's event and reply lines are checked
    /// against its schema (`PrintedLines`).
    public static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
        executable: URL = OrientdProcess.executable, prefix: [String] = [], timeout: Double? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = prefix + arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.start()
        let stopper = DispatchWorkItem { if process.isRunning { process.terminate() } }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: stopper) }
        defer { stopper.cancel() }
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        // Written by the reader before it signals `drained`, read here only after waiting
        // on it: the semaphore orders the two (a thread's isFinished does not, for TSan).
        nonisolated(unsafe) var errData = Data()
        let drained = DispatchSemaphore(value: 0)
        let errReader = Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        errReader.start()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitForEnd()
        drained.wait()
        let result = Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
        if executable == OrientdProcess.executable {
            PrintedLines.check(result.lines, from: "orientd \(arguments.joined(separator: " "))")
        }
        return result
    }
}

/// Writes recordings for the tests into a temporary directory.
public struct Scratch {
    public let directory: URL

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A recording of a still sensor reading `vectors` in turn, each for `seconds`, at 50 Hz.
    public static func stillRecording(_ vectors: [(Double, Double, Double)], seconds: Double) -> String {
        var text = "# orientd-recording 1\n# rate-hz: 50\ntime,x,y,z\n"
        let perVector = Int(seconds * 50)
        for (index, v) in vectors.enumerated() {
            for i in 0..<perVector {
                text += String(format: "%.3f,%.4f,%.4f,%.4f\n", Double(index * perVector + i) / 50, v.0, v.1, v.2)
            }
        }
        return text
    }

    /// A labelled 50 Hz recording: portrait 2 s, turned to landscape-left, 2 s, face-up 2 s.
    public static func rotationRecording(matrix: String? = nil, raw: (Vector3) -> Vector3 = { $0 }) -> String {
        var header = RecordingHeader(hasExpectColumn: true)
        header[RecordingHeader.Key.rate] = "50"
        if let matrix { header[RecordingHeader.Key.mountMatrix] = matrix }
        var bytes = Array(header.text.utf8)
        let g = standardGravity
        let writer = RecordingWriter()
        for i in 0..<300 {
            let t = Double(i) / 50
            let (v, label): (Vector3, DeviceOrientation?) =
                switch t {
                case ..<2: (Vector3(0, -g, 0.5), .portrait)
                case ..<4: (Vector3(-g, 0, 0.5), t < 2.3 ? nil : .landscapeLeft)
                default: (Vector3(0, 0.3, g), t < 4.3 ? nil : .faceUp)
                }
            writer.append(Sample(time: t, acceleration: raw(v)), expect: .some(label.map(PoseLabel.pose)), to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
