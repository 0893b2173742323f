import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// A recording read as fast as it goes is parsed on a thread of its own
/// (`RecordingReader.readAhead`); with no thread to be had, it must be read on the
/// caller's, not wait for ever for a reader that never started. No thread is to be had
/// by a user at its process limit: `setpriv` to nobody, `prlimit --nproc=1` (root alone
/// can switch users, and the limit binds no root).
@Suite(
    "orientd evaluate and replay --fast with no thread to be had",
    .enabled(if: NoThread.counterpart.missing.isEmpty, "\(NoThread.skipReason)"))
struct NoThreadTests {

    @Test("the same output as with threads, on one thread", arguments: [["evaluate", "--table"], ["replay", "--fast"]])
    func sameOutput(command: [String]) throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        // 20 000 samples: more than the four batches of 4096 queued ahead, so a reader run
        // inline, with nobody to take its batches, would wait for room for ever.
        var header = RecordingHeader(hasExpectColumn: true)
        header[RecordingHeader.Key.rate] = "100"
        var bytes = Array(header.text.utf8)
        let writer = RecordingWriter()
        for i in 0..<20_000 {
            let portrait = (i / 1000) % 2 == 0
            let g = standardGravity
            let sample = Sample(time: Double(i) / 100, acceleration: portrait ? Vector3(0, -g, 0.5) : Vector3(-g, 0, 0.5))
            writer.append(sample, expect: .some(i % 1000 < 100 ? nil : .pose(portrait ? .portrait : .landscapeLeft)), to: &bytes)
        }
        let path = try scratch.write("long.csv", String(decoding: bytes, as: UTF8.self))
        // nobody must reach the binary and the file: both in the scratch directory.
        let binary = scratch.directory.appendingPathComponent("orientd").path
        try FileManager.default.copyItem(atPath: OrientdProcess.executable.path, toPath: binary)
        chmod(scratch.directory.path, 0o755)
        chmod(path, 0o644)

        let threaded = try OrientdProcess.run(command + [path], executable: URL(fileURLWithPath: binary))
        let alone = try OrientdProcess.run(
            ["--signal=KILL", "30", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "prlimit", "--nproc=1", binary] + command
                + [path],
            executable: URL(fileURLWithPath: "/usr/bin/timeout"))
        #expect(
            alone.status == threaded.status,
            "status \(alone.status) (137: killed after 30 s), with threads \(threaded.status): \(alone.stderr)")
        #expect(alone.stdout == threaded.stdout)
        #expect(alone.stdout.contains(command[0] == "replay" ? "landscape-left" : "total"), "\(alone.stdout)")
    }
}

/// What the suite needs: root, to switch to nobody, and the programs that do it.
enum NoThread {
    static let counterpart = MissingCounterpart(
        missing: (getuid() == 0 ? [] : ["root"])
            + ["setpriv", "prlimit", "timeout"].filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") })
    static let skipReason = counterpart.skipReason(
        suite: "NoThreadTests (a recording read with no thread to be had)", why: "It switches to user nobody: run the tests as root.")
}
