import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// orientd with no thread to be had, as a user at its process limit is: `setpriv` to
/// nobody, `prlimit --nproc=1` (root alone can switch users, and the limit binds no root).
/// Reading a recording ahead (`RecordingReader.readAhead`) is an optimisation: it falls
/// back to the caller's thread. The threads that read a sensor or play a replay are not:
/// run inline they held the main thread that drains the outbox, so `run` died of a
/// mutex taken twice and a replay of over 1024 events waited for ever. They must end the
/// command at once, saying why.
@Suite(
    "orientd with no thread to be had: a recording read on one thread, or a clear failure",
    .enabled(if: NoThread.counterpart.missing.isEmpty, "\(NoThread.skipReason)"))
struct NoThreadTests {

    @Test("explain: the same output as with threads, on one thread")
    func explainOnOneThread() throws {
        let scratch = try NoThread.scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        // 20 000 samples: more than the four batches of 4096 queued ahead, so a reader run
        // inline, with nobody to take its batches, would wait for ever for room.
        let path = try NoThread.recording(in: scratch, samples: 20_000, samplesPerPose: 1000)
        let threaded = try OrientdProcess.run(["explain", path], executable: NoThread.binary(in: scratch))
        let alone = try NoThread.run(["explain", path], in: scratch)
        #expect(
            alone.status == threaded.status,
            "status \(alone.status) (137: killed after 30 s), with threads \(threaded.status): \(alone.stderr)")
        #expect(alone.stdout == threaded.stdout)
        // A turn every 10 s: the first pose, then 19 turns, each explained on a line.
        #expect(alone.lines.count == 20, "\(alone.stdout)")
    }

    @Test(
        "replay, paced or --fast: status 71 at once, naming the recording and the process limit",
        arguments: [["--fast"], ["--speed", "1000"]])
    func replayFails(pace: [String]) throws {
        let scratch = try NoThread.scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        // 1500 turns: more events than the outbox holds (1024).
        let path = try NoThread.recording(in: scratch, samples: 60_000, samplesPerPose: 40)
        let alone = try NoThread.run(["replay"] + pace + [path], in: scratch)
        #expect(alone.status == 71, "status \(alone.status) (137: killed after 30 s): \(alone.stderr)")
        #expect(alone.stderr.contains("cannot start a thread to replay \(path)"), "\(alone.stderr)")
        #expect(alone.stderr.contains("ulimit -u"), "\(alone.stderr)")
        #expect(alone.stdout.isEmpty, "\(alone.stdout)")
    }

    @Test(
        "run on a sensor (umockdev): status 71 at once, naming the sensor's thread; the switches' thread warned of",
        .enabled(if: NoThread.umockdevRun != nil, "umockdev-run is not installed (apt-get install umockdev)"))
    func runFails() throws {
        let scratch = try NoThread.scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let fixture = Repository.root.appendingPathComponent("Tests/Fixtures/umockdev/polled-accel.umockdev").path
        let alone = try NoThread.run(
            ["run", "--no-socket", "--state-directory", scratch.directory.path], in: scratch,
            wrapper: [NoThread.umockdevRun ?? "", "-d", fixture, "--"])
        #expect(alone.status == 71, "status \(alone.status) (137: killed after 30 s): \(alone.stderr)")
        #expect(alone.stderr.contains("error: cannot start a thread to read "), "\(alone.stderr)")
        #expect(alone.stderr.contains("warning: tablet-mode switches not watched: cannot start a thread"), "\(alone.stderr)")
        #expect(!alone.stderr.contains("Fatal error"), "\(alone.stderr)")
    }
}

/// What the suite needs: root, to switch to nobody, and the programs that do it.
enum NoThread {
    static let counterpart = MissingCounterpart(
        missing: (getuid() == 0 ? [] : ["root"])
            + ["setpriv", "prlimit", "timeout"].filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") })
    static let skipReason = counterpart.skipReason(
        suite: "NoThreadTests (orientd with no thread to be had)", why: "It switches to user nobody: run the tests as root.")
    static let umockdevRun = ["/usr/bin/umockdev-run"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A directory nobody can reach, with orientd copied into it.
    static func scratch() throws -> Scratch {
        let scratch = try Scratch()
        try FileManager.default.copyItem(atPath: OrientdProcess.executable.path, toPath: binary(in: scratch).path)
        chmod(scratch.directory.path, 0o755)
        return scratch
    }

    static func binary(in scratch: Scratch) -> URL { scratch.directory.appendingPathComponent("orientd") }

    /// A labelled recording at 100 Hz that turns between portrait and landscape-left
    /// every `samplesPerPose` samples, the first tenth of each pose unlabelled.
    static func recording(in scratch: Scratch, samples: Int, samplesPerPose: Int) throws -> String {
        var header = RecordingHeader(hasExpectColumn: true)
        header[RecordingHeader.Key.rate] = "100"
        var bytes = Array(header.text.utf8)
        let writer = RecordingWriter()
        for i in 0..<samples {
            let portrait = (i / samplesPerPose) % 2 == 0
            let g = standardGravity
            let sample = Sample(time: Double(i) / 100, acceleration: portrait ? Vector3(0, -g, 0.5) : Vector3(-g, 0, 0.5))
            let settled = i % samplesPerPose >= samplesPerPose / 10
            writer.append(sample, expect: .some(settled ? .pose(portrait ? .portrait : .landscapeLeft) : nil), to: &bytes)
        }
        let path = try scratch.write("turns.csv", String(decoding: bytes, as: UTF8.self))
        chmod(path, 0o644)
        return path
    }

    /// orientd as nobody at a process limit of one (so no thread), killed after 30 s. In
    /// an AddressSanitizer build (`scripts/test --sanitize address`) without the leak check
    /// at exit, which needs a thread of its own and would end every run with its error.
    static func run(_ arguments: [String], in scratch: Scratch, wrapper: [String] = []) throws -> OrientdProcess.Result {
        try OrientdProcess.run(
            ["--signal=KILL", "30"] + wrapper + ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "prlimit", "--nproc=1"]
                + [binary(in: scratch).path] + arguments,
            environment: ["LSAN_OPTIONS": "detect_leaks=0"], executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    }
}
