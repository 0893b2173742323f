import Foundation
import Glibc
import OrientdTestSupport
import Testing

/// `hooks/orientd-suggest-notify` against a real notification server: mako 1.7 (Debian's)
/// on a headless sway, on a private session bus, with the real `notify-send`. orientd
/// replays a recording at its pace with the lock on; the offer must appear in mako with
/// its Rotate action, and mako invoking the action (`makoctl invoke`, as a click does)
/// must turn the screen through `orientd ctl accept` with the lock kept.
@Suite(.serialized, .enabled(if: NotificationSession.counterpart.missing.isEmpty, "\(NotificationSession.skipReason)"))
struct SuggestionNotifyTests {
    /// The pipeline a user runs, on a replay at the recording's pace: events to a file
    /// and to the script.
    func start(_ session: NotificationSession, angles: [Int], lock: String = "portrait-primary") throws -> (Process, URL) {
        let recording = session.runtime.appendingPathComponent("turn.csv")
        try recordingThrough(angles: angles).write(to: recording, atomically: true, encoding: .utf8)
        let events = session.runtime.appendingPathComponent("events.ndjson")
        let socket = session.runtime.appendingPathComponent("orientd.sock").path
        // Its own session, so that a failed test can stop all of it: a notify-send left
        // waiting would hold the test's output open. -w: setsid waits for the shell.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = [
            "-w", "/bin/sh", "-c",
            "orientd replay --lock \(lock) --socket \(socket) \(recording.path) | tee \(events.path) | orientd-suggest-notify",
        ]
        process.environment = session.environment.merging(["ORIENTD_SOCKET": socket]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: session.log("pipeline"))
        process.standardError = process.standardOutput
        try process.start()
        return (process, events)
    }

    func lines(_ file: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("an offer shows in mako with a Rotate action; invoking it turns the screen and keeps the lock")
    func accept() throws {
        let session = try NotificationSession()
        let (pipeline, events) = try start(session, angles: [0, 0, 90, 90, 90, 90, 90, 90, 90, 90])
        defer { killSession(startedBy: pipeline) }
        let shown = try session.waitFor("the notification with its Rotate action", seconds: 8) {
            try session.notifications().first { $0.actions["accept"] == "Rotate" }
        }
        #expect(shown.summary == "Rotate the screen?" && shown.body.contains("landscape-primary"), "\(shown)")
        try session.makoctl(["invoke", "-n", "\(shown.id)", "accept"])
        _ = try session.waitFor("the accept to take effect", seconds: 5) {
            lines(events).contains { $0["event"] as? String == "suggestion" && $0["reason"] as? String == "accepted" } ? true : nil
        }
        pipeline.waitForEnd()
        let all = lines(events)
        let turn = all.last { $0["event"] as? String == "orientation" }
        #expect(turn?["screen"] as? String == "landscape-primary" && turn?["locked"] as? Bool == true, "\(all)")
        #expect(turn?["cause"] as? String == "lock", "\(all)")
        let lock = all.last { $0["event"] as? String == "lock" }
        #expect(lock?["allowed"] as? [String] == ["landscape-primary"], "the lock stays on, at the new orientation: \(all)")
        #expect(try session.notifications().isEmpty, "nothing left open")
        #expect(pipeline.terminationStatus == 0, "\(session.logText("pipeline"))")
        #expect(!session.logText("pipeline").contains("orientd-suggest-notify:"), "no warning: \(session.logText("pipeline"))")
    }

    @Test("a withdrawn offer closes its notification")
    func withdrawn() throws {
        let session = try NotificationSession()
        let (pipeline, events) = try start(session, angles: [0, 0, 90, 90, 90, 0, 0, 0, 0])
        defer { killSession(startedBy: pipeline) }
        _ = try session.waitFor("the notification", seconds: 8) { try session.notifications().first }
        _ = try session.waitFor("the withdrawal", seconds: 8) {
            lines(events).contains { $0["event"] as? String == "suggestion" && $0["state"] as? String == "withdrawn" } ? true : nil
        }
        _ = try session.waitFor("the notification to close", seconds: 3) { try session.notifications().isEmpty ? true : nil }
        pipeline.waitForEnd()
        let withdrawal = lines(events).first { $0["event"] as? String == "suggestion" && $0["state"] as? String == "withdrawn" }
        #expect(withdrawal?["reason"] as? String == "device")
        #expect(lines(events).allSatisfy { $0["screen"] as? String != "landscape-primary" || $0["event"] as? String != "orientation" })
        #expect(pipeline.terminationStatus == 0, "\(session.logText("pipeline"))")
        #expect(!session.logText("pipeline").contains("orientd-suggest-notify:"), "no warning: \(session.logText("pipeline"))")
    }
}

/// A headless sway (as `nobody`: sway refuses root) with mako on it, and a private
/// session bus; everything but sway runs as the test's user, reaching sway's display by
/// its path.
final class NotificationSession {
    static let counterpart = MissingCounterpart(
        programs: ["sway", "mako", "makoctl", "notify-send", "dbus-daemon", "busctl", "stdbuf", "setpriv", "setsid", "pkill"],
        needsRoot: false)
    static let skipReason = counterpart.skipReason(
        suite: "SuggestionNotifyTests (the suggestion's notification against a real mako)",
        why: "scripts/test --all installs them and asks for this tier.")

    struct Notification: CustomStringConvertible {
        var id: Int
        var summary: String
        var body: String
        var actions: [String: String]
        var description: String { "#\(id) \(summary) / \(body) \(actions)" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let runtime: URL
    /// sway's runtime directory, which `nobody` owns.
    let display: URL
    private let children = ChildProcesses()

    var environment: [String: String] {
        let orientd = OrientdProcess.executable.deletingLastPathComponent().path
        let hooks = Repository.root.appendingPathComponent("hooks").path
        return [
            "PATH": "\(orientd):\(hooks):/usr/bin:/bin", "HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime.path)/bus",
            "WAYLAND_DISPLAY": display.appendingPathComponent("wayland-1").path,
        ]
    }

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-notify-\(UUID().uuidString)")
        runtime = base.appendingPathComponent("session")
        display = base.appendingPathComponent("display")
        for directory in [runtime, display] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            chmod(directory.path, 0o700)
        }
        chmod(base.path, 0o755)
        let config = display.appendingPathComponent("sway.config")
        try "output * bg #000000 solid_color\n".write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        var sway = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(display.path)", "WLR_BACKENDS=headless"]
        sway += ["WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1", "sway", "-c", config.path]
        if getuid() == 0 {
            chown(display.path, 65534, 65534)
            sway = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + sway
        }
        try start(sway, log: "sway")
        _ = try waitFor("sway's display", seconds: 10) {
            FileManager.default.fileExists(atPath: self.display.appendingPathComponent("wayland-1").path) ? true : nil
        }
        try start(["dbus-daemon", "--session", "--nofork", "--address=unix:path=\(runtime.path)/bus"], log: "dbus")
        _ = try waitFor("the session bus", seconds: 10) {
            FileManager.default.fileExists(atPath: "\(self.runtime.path)/bus") ? true : nil
        }
        try start(["mako"], log: "mako")
        _ = try waitFor("mako", seconds: 10) { (try? self.notifications()) != nil ? true : nil }
    }

    deinit {
        children.killAll()
        try? FileManager.default.removeItem(at: runtime.deletingLastPathComponent())
    }

    func log(_ name: String) throws -> URL {
        let file = runtime.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        return file
    }

    func logText(_ name: String) -> String {
        (try? String(contentsOf: runtime.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
    }

    private func start(_ arguments: [String], log name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: log(name))
        process.standardError = process.standardOutput
        try children.start(process)
    }

    func waitFor<T>(_ what: String, seconds: Double, _ probe: () throws -> T?) throws -> T {
        try ChildProcesses.waitFor(
            what, seconds: seconds,
            evidence: {
                ["sway", "dbus", "mako", "pipeline"].map { "\($0): \(self.logText($0).suffix(600))" }.joined(separator: "\n")
            }, probe)
    }

    @discardableResult
    func makoctl(_ arguments: [String]) throws -> String {
        let result = try OrientdProcess.run(
            arguments, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/makoctl"))
        guard result.status == 0 else { throw Failure(description: "makoctl \(arguments): \(result.stderr)") }
        return result.stdout
    }

    /// What mako shows now (`makoctl list`).
    func notifications() throws -> [Notification] {
        let text = try makoctl(["list"])
        guard let reply = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = (reply["data"] as? [Any])?.first as? [[String: [String: Any]]]
        else { throw Failure(description: "makoctl list: \(text)") }
        return data.map { item in
            Notification(
                id: item["id"]?["data"] as? Int ?? -1, summary: item["summary"]?["data"] as? String ?? "",
                body: item["body"]?["data"] as? String ?? "", actions: item["actions"]?["data"] as? [String: String] ?? [:])
        }
    }
}
