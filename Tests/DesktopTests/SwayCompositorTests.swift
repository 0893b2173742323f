import Foundation
import Glibc
import OrientdTestSupport
import Testing

/// `hooks/orientd-rotate-sway` and `hooks/orientd-rotate-wlroots` against a real sway,
/// checked by where the picture lands on the physical panel, not by the words the
/// scripts send: a test of the words alone once passed while landscape was upside down.
///
/// The sway under test runs nested (its wayland backend) in a second, headless sway, so
/// a screenshot of the outer one (grim) shows the inner one's framebuffer as its panel
/// would, rotation included. (A screenshot of a rotated output itself is always upright:
/// grim undoes the output's transform.) Both run as `nobody`, because sway refuses root.
@Suite(.serialized, .enabled(if: NestedSway.missing.isEmpty, "\(NestedSway.skipReason)"))
struct SwayCompositorTests {
    /// orientd's own events for the twelve changes, in the order of `everyScreenChange`.
    static func events() throws -> [(line: String, event: [String: Any])] {
        let scratch = try Scratch()
        let path = try scratch.write("changes.csv", recordingThrough(angles: everyScreenChange))
        let replay = try OrientdProcess.run(["replay", "--fast", path])
        let events = try #require(replay.events)
        let changes = zip(replay.lines, events).filter { ($0.1["previous"] as? String) != ($0.1["screen"] as? String) }
        #expect(changes.compactMap { $0.1["angle"] as? Int } == everyScreenChange, "\(replay.stdout)")
        return changes.map { (line: $0.0, event: $0.1) }
    }

    @Test("sway, stream mode: all twelve changes turn the picture the right way, and sway reports it")
    func swayStream() throws {
        let sway = try NestedSway()
        let changes = try Self.events()
        let script = try ScriptProcess(hook("orientd-rotate-sway"), environment: sway.clientEnvironment)
        defer { script.finish() }
        for change in changes {
            try script.send(change.line)
            let angle = try #require(change.event["angle"] as? Int)
            try sway.expectPicture(at: angle, after: "\(change.event["previous"] ?? "start") → \(angle)°")
            // Measured: sway's own word for a quarter turn clockwise is 90, so it reports
            // the W3C angle (normal for 0).
            #expect(try sway.transform() == (angle == 0 ? "normal" : "\(angle)"))
        }
        let status = script.finish()
        #expect(status == 0, "\(script.stderr)")
        #expect(!script.stderr.contains("failed"), "\(script.stderr)")
    }

    @Test("sway, hook mode: each change applied as orientd run --exec runs it, exit 0")
    func swayHook() throws {
        let sway = try NestedSway()
        for change in try Self.events().dropFirst() {
            let angle = try #require(change.event["angle"] as? Int)
            let env = hookEnvironment(for: change.event, line: change.line)
            let run = try OrientdProcess.run(
                [env["ORIENTD_SCREEN"]!, env["ORIENTD_PREVIOUS"]!], environment: sway.clientEnvironment.merging(env) { $1 },
                executable: hook("orientd-rotate-sway"))
            #expect(run.status == 0, "\(run.stderr)")
            try sway.expectPicture(at: angle, after: "hook to \(angle)°")
        }
    }

    @Test("sway, through orientd replay --exec: the last change is on the panel and every hook changed it")
    func swayThroughOrientd() throws {
        let sway = try NestedSway()
        let scratch = try Scratch()
        let path = try scratch.write("turn.csv", recordingThrough(angles: [0, 270, 90]))
        let run = try OrientdProcess.run(
            ["replay", "--fast", "--exec", hook("orientd-rotate-sway").path, path], environment: sway.clientEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        let hooks = try #require(run.events).filter { $0["event"] as? String == "hooks" }
        #expect(!hooks.isEmpty && hooks.allSatisfy { $0["outcome"] as? String == "changed" }, "\(run.stdout)")
        try sway.expectPicture(at: 90, after: "the replay")
    }

    @Test("sway: an output it does not have fails, naming the ones it has, and turns nothing")
    func swayUnknownOutput() throws {
        let sway = try NestedSway()
        let run = try OrientdProcess.run(
            ["landscape-primary", "portrait-primary"],
            environment: sway.clientEnvironment.merging(
                ["ORIENTD_SCREEN": "landscape-primary", "ORIENTD_TRANSFORM": "270", "ORIENTD_OUTPUT": "eDP-9"]) { $1 },
            executable: hook("orientd-rotate-sway"))
        #expect(run.status == 1)
        #expect(run.stderr.contains("eDP-9") && run.stderr.contains(sway.output), "\(run.stderr)")
        try sway.expectPicture(at: 0, after: "a refused output")
    }

    @Test("wlroots: wlr-randr turns the picture the right way for all twelve changes, stream and hook mode")
    func wlroots() throws {
        let sway = try NestedSway()
        // sway 1.7 lists its virtual outputs (headless, nested) to wlr-randr as disabled
        // with no mode, and refuses a transform alone for them; a real panel has its
        // modes. So this shim adds the output's own size as a mode to the real wlr-randr's
        // transform calls, and nothing else. The direction is the real wlr-randr's.
        let scratch = try Scratch()
        let bin = scratch.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let shim = bin.appendingPathComponent("wlr-randr")
        try """
        #!/bin/sh
        case " $* " in *" --transform "*) exec /usr/bin/wlr-randr "$@" --on --custom-mode \(sway.size)@60Hz ;; esac
        exec /usr/bin/wlr-randr "$@"
        """.write(to: shim, atomically: true, encoding: .utf8)
        chmod(shim.path, 0o755)
        let environment = sway.clientEnvironment.merging(["PATH": "\(bin.path):/usr/bin:/bin"]) { $1 }
        let changes = try Self.events()

        let script = try ScriptProcess(hook("orientd-rotate-wlroots"), environment: environment)
        for change in changes {
            try script.send(change.line)
            try sway.expectPicture(at: try #require(change.event["angle"] as? Int), after: "stream to \(change.event["angle"]!)°")
        }
        #expect(script.finish() == 0, "\(script.stderr)")

        for change in changes.dropFirst() {
            let env = hookEnvironment(for: change.event, line: change.line)
            let run = try OrientdProcess.run(
                [env["ORIENTD_SCREEN"]!, env["ORIENTD_PREVIOUS"]!], environment: environment.merging(env) { $1 },
                executable: hook("orientd-rotate-wlroots"))
            #expect(run.status == 0, "\(run.stderr)")
            try sway.expectPicture(at: try #require(change.event["angle"] as? Int), after: "hook to \(change.event["angle"]!)°")
        }
    }

    func hook(_ name: String) -> URL { Repository.hook(name) }
}

/// A script in stream mode, fed one line at a time.
final class ScriptProcess {
    private let process = Process()
    private let input = Pipe()
    private let errorFile: URL

    init(_ script: URL, arguments: [String] = [], environment: [String: String]) throws {
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-script-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.executableURL = script
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.start()
    }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Ends the input and waits; the exit status.
    @discardableResult
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitForEnd()
        return process.terminationStatus
    }
}

/// A headless sway (the "monitor") with a second sway nested in it, showing the marker
/// picture as its background; the inner one is the compositor under test.
final class NestedSway {
    static let counterpart = MissingCounterpart(
        programs: ["sway", "grim", "swaybg", "wlr-randr", "setpriv", "jq"], needsRoot: false)
    static var missing: [String] { counterpart.missing }
    static let skipReason = counterpart.skipReason(
        suite: "SwayCompositorTests (the rotation scripts against a real sway)",
        why: "scripts/test --all installs them and asks for this tier.")

    let runtime: URL
    private let children = ChildProcesses()
    /// The inner sway's IPC socket, its output and that output's size.
    private(set) var innerSocket = ""
    private(set) var output = ""
    private(set) var size = ""
    private var outerSocket = ""
    /// Where the inner sway's window is on the outer panel.
    private var window = (x: 0, y: 0, width: 0, height: 0)

    /// What a client (swaymsg, wlr-randr, the scripts) needs to reach the inner sway.
    var clientEnvironment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "SWAYSOCK": innerSocket, "XDG_RUNTIME_DIR": runtime.path,
            "WAYLAND_DISPLAY": "wayland-2",
        ]
    }

    init() throws {
        runtime = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-sway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        if getuid() == 0 { chown(runtime.path, 65534, 65534) }  // nobody
        let marker = runtime.appendingPathComponent("marker.png")
        try FileManager.default.copyItem(
            at: Repository.root.appendingPathComponent("Tests/Fixtures/screen/marker.png"), to: marker)
        let outerConfig = runtime.appendingPathComponent("outer.config")
        try "output * bg #000000 solid_color\n".write(to: outerConfig, atomically: true, encoding: .utf8)
        let innerConfig = runtime.appendingPathComponent("inner.config")
        try "output * bg \(marker.path) stretch\n".write(to: innerConfig, atomically: true, encoding: .utf8)
        for file in [marker, outerConfig, innerConfig] { chmod(file.path, 0o644) }

        let outer = try start(["sway", "-c", outerConfig.path], ["WLR_BACKENDS": "headless"])
        outerSocket = try waitFor("the headless sway's socket") { self.socket(of: outer) }
        _ = try waitFor("the headless sway's display") { self.exists("wayland-1") ? "" : nil }
        let inner = try start(["sway", "-c", innerConfig.path], ["WLR_BACKENDS": "wayland", "WAYLAND_DISPLAY": "wayland-1"])
        innerSocket = try waitFor("the nested sway's socket") { self.socket(of: inner) }
        output = try waitFor("the nested sway's output") {
            (try? self.swaymsg(self.innerSocket, ["-t", "get_outputs"], jq: ".[0].name")).flatMap { $0.isEmpty ? nil : $0 }
        }
        let rect = try waitFor("the nested sway's window") {
            (try? self.swaymsg(
                self.outerSocket, ["-t", "get_tree"],
                jq: #"[.. | objects | select(.app_id? == "wlroots") | .rect | "\(.x) \(.y) \(.width) \(.height)"] | first // empty"#))
                .flatMap { $0.isEmpty ? nil : $0 }
        }
        let numbers = rect.split(separator: " ").compactMap { Int($0) }
        window = (numbers[0], numbers[1], numbers[2], numbers[3])
        size = "\(window.width)x\(window.height)"
        try expectPicture(at: 0, after: "start")
    }

    deinit {
        children.killAll()
        try? FileManager.default.removeItem(at: runtime)
    }

    /// Runs a program as `nobody` (when root) with only the environment given.
    private func asNobody(_ arguments: [String], _ environment: [String: String]) -> Process {
        let process = Process()
        var env = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path]
        env.merge(environment) { $1 }
        let assignments = env.map { "\($0.key)=\($0.value)" }
        if getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "/usr/bin/env", "-i"]
                + assignments + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["-i"] + assignments + arguments
        }
        return process
    }

    private func start(_ arguments: [String], _ environment: [String: String]) throws -> Process {
        let process = asNobody(
            arguments, environment.merging(["WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]) { $1 })
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try children.start(process)
        return process
    }

    private func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: runtime.appendingPathComponent(name).path)
    }

    /// sway names its socket after its uid and pid; setpriv and env exec, so the pid is sway's.
    private func socket(of process: Process) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".\(process.processIdentifier).sock") }
            .map { runtime.appendingPathComponent($0).path }
    }

    private func waitFor<T>(_ what: String, _ probe: () -> T?) throws -> T {
        try ChildProcesses.waitFor(what, seconds: 10, every: 0.05, evidence: { "in \(runtime.path)" }, probe)
    }

    struct NestedSwayError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    func swaymsg(_ socket: String, _ arguments: [String], jq filter: String) throws -> String {
        let json = try OrientdProcess.runShell(["swaymsg", "-s", socket, "-r"] + arguments)
        guard json.status == 0 else { throw NestedSwayError(message: "swaymsg \(arguments): \(json.stderr)") }
        let result = try OrientdProcess.run(
            ["-r", filter], stdin: Data(json.stdout.utf8), executable: URL(fileURLWithPath: "/usr/bin/jq"))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The transform the inner sway reports for its output.
    func transform() throws -> String {
        try swaymsg(innerSocket, ["-t", "get_outputs"], jq: ".[0].transform")
    }

    /// A screenshot of the outer panel, which shows the inner sway's framebuffer.
    func picture() throws -> PanelPicture {
        let file = runtime.appendingPathComponent("shot.ppm")
        try? FileManager.default.removeItem(at: file)
        let grim = asNobody(["grim", "-t", "ppm", file.path], ["WAYLAND_DISPLAY": "wayland-1"])
        grim.standardError = FileHandle.nullDevice
        try grim.start()
        grim.waitForEnd()
        return try PanelPicture(ppm: Data(contentsOf: file))
    }

    /// Expects the marker's top-left corner where the screen angle puts it (and its
    /// bottom-right corner opposite, so no mirror image passes), waiting up to 3 s for
    /// the compositor to draw the change.
    func expectPicture(at angle: Int, after what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = PanelCorner(screenAngle: angle)
        var seen: (red: PanelCorner?, blue: PanelCorner?) = (nil, nil)
        let deadline = Date().addingTimeInterval(3)
        repeat {
            seen = try picture().marker(in: window)
            if seen.red == expected && seen.blue == expected.opposite { return }
            usleep(100_000)
        } while Date() < deadline
        let red = seen.red.map(\.rawValue) ?? "nowhere"
        let blue = seen.blue.map(\.rawValue) ?? "nowhere"
        Issue.record(
            Comment(
                rawValue:
                    "after \(what): the picture's top-left corner is at the panel's \(red) (bottom-right at \(blue)); \(angle)° puts it \(expected)"
            ),
            sourceLocation: sourceLocation)
    }
}
