import Foundation
import OrientdTestSupport
import Testing

/// The rotation scripts in `hooks/`, fed by the real binary (stream mode) or run as
/// `orientd run --exec` would (hook mode), against fake `xrandr`, `xinput`, `swaymsg`,
/// `wlr-randr`, `hyprctl` and `niri` that log every call.
@Suite("hooks/orientd-rotate-*")
struct RotationScriptTests {
    /// What one rotation applies, in each tool's words.
    struct Words {
        var xrandr: String
        var transform: String
        var hyprland: Int

        /// The words of an orientation event. Wayland tools take "normal" for no transform.
        init(event: [String: Any]) throws {
            xrandr = try #require(event["xrandr"] as? String)
            let transform = try #require(event["transform"] as? String)
            self.transform = transform == "0" ? "normal" : transform
            hyprland = try #require(event["hyprland"] as? Int)
        }

        /// sway's word for the same rotation: sway counts clockwise, the protocol value
        /// counter-clockwise (measured on a real sway in SwayCompositorTests).
        var swayTransform: String {
            switch transform {
            case "90": "270"
            case "270": "90"
            default: transform
            }
        }

        init(xrandr: String, transform: String, hyprland: Int) {
            self.xrandr = xrandr
            self.transform = transform
            self.hyprland = hyprland
        }
    }

    /// A script and the calls it should make.
    struct Script: Sendable, CustomTestStringConvertible {
        var name: String
        /// The tool whose failure must fail the rotation.
        var tool: String
        /// How it asks for the output, once, when ORIENTD_OUTPUT is not set.
        var query: String
        /// The calls that turn `output` to `words`, in order.
        var calls: @Sendable (_ words: Words, _ output: String) -> [String]

        var testDescription: String { name }
        var url: URL { RotationScriptTests.hook(name) }

        static let all: [Script] = [
            Script(name: "orientd-rotate-x11", tool: "xrandr", query: "xrandr --query") { words, output in
                [
                    // xrandr only warns about an output it does not have, so the script checks first.
                    "xrandr --query",
                    "xrandr --output \(output) --rotate \(words.xrandr)",
                    "xinput list --long",
                    "xinput map-to-output 10 \(output)",  // the touchscreen
                    "xinput map-to-output 11 \(output)",  // the pen, not the touchpad (12) nor its keyboard (13)
                ]
            },
            Script(name: "orientd-rotate-sway", tool: "swaymsg", query: "swaymsg -t get_outputs -r") { words, output in
                [
                    // sway keeps settings for outputs it does not have, so the script checks first.
                    "swaymsg -t get_outputs -r",
                    "swaymsg output \(output) transform \(words.swayTransform)",
                    "swaymsg input type:touch map_to_output \(output)",
                    "swaymsg input type:tablet_tool map_to_output \(output)",
                ]
            },
            Script(name: "orientd-rotate-wlroots", tool: "wlr-randr", query: "wlr-randr") { words, output in
                [
                    // wlr-randr's refusal of an output it does not have names no others, so the script checks first.
                    "wlr-randr",
                    "wlr-randr --output \(output) --transform \(words.transform)",
                    // Again: wayfire 0.9 redraws an idle screen only at the next configuration.
                    "wlr-randr --output \(output) --transform \(words.transform)",
                ]
            },
            Script(name: "orientd-rotate-hyprland", tool: "hyprctl", query: "hyprctl monitors") { words, output in
                let n = words.hyprland
                return [
                    // The monitor's own mode, position and scale, so that only its transform
                    // changes; then read back.
                    "hyprctl monitors",
                    "hyprctl --batch keyword monitor \(output),\(FakeTools.hyprlandRule[output] ?? "?"),transform,\(n)"
                        + " ; keyword input:touchdevice:transform \(n) ; keyword input:tablet:transform \(n) ; dispatch forcerendererreload",
                    "hyprctl monitors",
                ]
            },
            Script(name: "orientd-rotate-niri", tool: "niri", query: "niri msg outputs") { words, output in
                ["niri msg output \(output) transform \(words.transform)"]
            },
        ]
    }

    /// The output the fakes' answers lead to: a built-in panel, listed after an external one.
    static let detectedOutput = "eDP-2"

    static let repository = Repository.root

    static func hook(_ name: String) -> URL { Repository.hook(name) }

    /// A recording that goes through all four screen orientations, then face-up (an event
    /// whose screen does not change).
    static let recording = repository.appendingPathComponent("Recordings/low-rate-10hz-rotations.csv").path

    /// Lines a stream may carry besides orientation events; none may rotate anything.
    static let otherLines = [
        #"{"event":"sensor","state":"attached","time":0,"device":"iio:device0","name":"bmc150_accel","#
            + #""location":"display","read":"buffered","rate":62.5,"version":1}"#,
        #"{"event":"lock","time":3.44,"locked":true,"allowed":["portrait-secondary"],"by":"socket","version":1}"#,
        #"{"event":"hooks","time":5.71,"screen":"portrait-secondary","outcome":"changed","results":[{"#
            + #""command":"orientd-rotate-sway","outcome":"changed","exit":0,"seconds":0.012}],"version":1}"#,
        #"{"reply":"lock","ok":true,"type":"portrait-secondary","angle":180,"device":"portrait","locked":true}"#,
        // A reply that looks like an event must still be taken for a reply.
        #"{"reply":"status","event":"orientation","screen":"portrait-secondary","previous":null,"#
            + #""xrandr":"inverted","transform":"180","hyprland":2}"#,
        #"{"event":"overflow","time":120.5,"dropped":70210,"version":1}"#,
        "not json",
        "",
    ]

    /// A change of the screen orientation, with the values orientd gives it.
    struct Change {
        var screen: String
        var angle: Int
        var device: String
        var words: Words

        static let landscape = Change(
            screen: "landscape-primary", angle: 90, device: "landscape-left",
            words: Words(xrandr: "right", transform: "270", hyprland: 3))
        static let all = [
            landscape,
            Change(
                screen: "portrait-secondary", angle: 180, device: "portrait-upside-down",
                words: Words(xrandr: "inverted", transform: "180", hyprland: 2)),
            Change(
                screen: "landscape-secondary", angle: 270, device: "landscape-right",
                words: Words(xrandr: "left", transform: "90", hyprland: 1)),
            Change(
                screen: "portrait-primary", angle: 0, device: "portrait",
                words: Words(xrandr: "normal", transform: "normal", hyprland: 0)),
        ]

        /// The event line orientd prints; `previous` nil on the first.
        func event(previous: String?) -> String {
            #"{"event":"orientation","time":1.5,"device":"\#(device)","screen":"\#(screen)","angle":\#(angle),"#
                + #""locked":false,"previous":\#(previous.map { "\"\($0)\"" } ?? "null"),"#
                + #""xrandr":"\#(words.xrandr)","transform":"\#(words.transform)","hyprland":\#(words.hyprland),"#
                + #""cause":"sensor","version":1}"#
        }

        /// The environment `orientd run --exec` gives a hook; `previous` empty on the first change.
        func hookEnvironment(previous: String) -> [String: String] {
            [
                "ORIENTD_SCREEN": screen, "ORIENTD_PREVIOUS": previous, "ORIENTD_ANGLE": "\(angle)",
                "ORIENTD_XRANDR": words.xrandr, "ORIENTD_TRANSFORM": words.transform,
                "ORIENTD_HYPRLAND": "\(words.hyprland)", "ORIENTD_DEVICE": device, "ORIENTD_LOCKED": "false",
                "ORIENTD_CAUSE": "sensor",
                "ORIENTD_EVENT": event(previous: previous.isEmpty ? nil : previous),
            ]
        }
    }

    // MARK: Stream mode

    @Test(
        "stream mode: one rotation per screen change of a replay, in order; other lines ignored",
        arguments: Script.all, [String?.none, "DP-3"])
    func stream(script: Script, output: String?) throws {
        let replay = try OrientdProcess.run(["replay", "--fast", Self.recording])
        #expect(replay.status == 0)
        let events = try #require(replay.events)
        let changes = events.filter { ($0["previous"] as? String) != ($0["screen"] as? String) }
        let words = try changes.map { try Words(event: $0) }
        #expect(
            changes.count >= 5 && changes.count < events.count,
            "the recording must turn the screen several times, and once change only the pose")
        #expect(Set(words.map(\.xrandr)) == ["normal", "right", "inverted", "left"])
        let input =
            (["not json", Self.otherLines[0]] + replay.lines.flatMap { [$0] + Self.otherLines })
            .joined(separator: "\n") + "\n"

        let fakes = try FakeTools()
        let run = try fakes.run(
            script.url, environment: output.map { ["ORIENTD_OUTPUT": $0] } ?? [:], stdin: input)

        let expected =
            (output == nil ? [script.query] : []) + words.flatMap { script.calls($0, output ?? Self.detectedOutput) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.calls == expected)
    }

    @Test("stream mode: rotates as each event arrives, before the input ends", arguments: Script.all)
    func streamDoesNotWaitForTheEnd(script: Script) throws {
        let fakes = try FakeTools()
        let input = Pipe()
        let process = try fakes.start(script.url, environment: ["ORIENTD_OUTPUT": "DSI-1"], stdin: .pipe(input))
        defer { try? input.fileHandleForWriting.close() }
        input.fileHandleForWriting.write(Data((Change.landscape.event(previous: nil) + "\n").utf8))
        let expected = script.calls(Change.landscape.words, "DSI-1")
        let deadline = Date().addingTimeInterval(TestTime.wait(10))
        while fakes.calls != expected && Date() < deadline { usleep(20_000) }
        #expect(fakes.calls == expected)
        #expect(process.isRunning, "the script must wait for more events")
        try input.fileHandleForWriting.close()
        process.waitForEnd()
        #expect(process.terminationStatus == 0)
        #expect(fakes.calls == expected, "nothing more at the end of the input")
    }

    @Test("stream mode: a failed command is reported and the next event is applied", arguments: Script.all)
    func streamGoesOnAfterAFailure(script: Script) throws {
        let fakes = try FakeTools()
        let (first, second) = (Change.all[3], Change.all[0])
        let run = try fakes.run(
            script.url, environment: ["ORIENTD_OUTPUT": "eDP-1", "FAKE_FAIL": script.tool],
            stdin: first.event(previous: nil) + "\n" + second.event(previous: first.screen) + "\n")
        #expect(run.status == 1, "the end status says a rotation failed")
        #expect(run.stderr.contains("failed"), "\(run.stderr)")
        // The first call of each rotation fails, so each rotation stops there.
        #expect(run.calls == [script.calls(first.words, "eDP-1")[0], script.calls(second.words, "eDP-1")[0]])
    }

    // MARK: Hook mode

    @Test("hook mode: applies the rotation in the environment and exits 0", arguments: Script.all)
    func hook(script: Script) throws {
        let fakes = try FakeTools()
        var previous = ""
        for change in Change.all {
            let run = try fakes.run(
                script.url, arguments: [change.screen, previous],
                environment: change.hookEnvironment(previous: previous))
            #expect(run.status == 0, "\(change.screen): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.calls == [script.query] + script.calls(change.words, Self.detectedOutput))
            previous = change.screen
        }
    }

    @Test(
        "hook mode through orientd replay --exec: changes applied in order, the first and the last",
        arguments: Script.all)
    func throughOrientd(script: Script) throws {
        let replay = try OrientdProcess.run(["replay", "--fast", Self.recording])
        let changes = try #require(replay.events).filter { ($0["previous"] as? String) != ($0["screen"] as? String) }
        let blocks = try changes.map { [script.query] + script.calls(try Words(event: $0), Self.detectedOutput) }

        let fakes = try FakeTools()
        let run = try fakes.run(
            OrientdProcess.executable, arguments: ["replay", "--fast", "--exec", script.url.path, Self.recording])
        #expect(run.status == 0, "\(run.stderr)")
        // A change waiting behind a running hook gives way to a newer one, so a fast replay
        // may skip changes in between: the calls are those of some changes, in order, from
        // the first to the last.
        var calls = run.calls[...]
        var applied: [Int] = []
        while !calls.isEmpty,
            let i = ((applied.last.map { $0 + 1 } ?? 0)..<blocks.count).first(where: { calls.starts(with: blocks[$0]) })
        {
            applied.append(i)
            calls = calls.dropFirst(blocks[i].count)
        }
        #expect(calls.isEmpty, "calls of no change: \(Array(calls))")
        #expect(applied.first == 0 && applied.last == blocks.count - 1, "\(applied)")
        let output = OrientdProcess.Result(status: run.status, stdout: run.stdout, stderr: run.stderr)
        let events = try #require(output.events)
        let hooks = events.filter { $0["event"] as? String == "hooks" }
        #expect(hooks.count == applied.count)
        #expect(hooks.allSatisfy { $0["outcome"] as? String == "changed" }, "\(run.stdout)")
    }

    @Test("hook mode: the same screen as before is nothing to do, 100, and no call", arguments: Script.all)
    func hookNothingToDo(script: Script) throws {
        let fakes = try FakeTools()
        let change = Change.landscape
        let run = try fakes.run(
            script.url, arguments: [change.screen, change.screen],
            environment: change.hookEnvironment(previous: change.screen))
        #expect(run.status == 100)
        #expect(run.calls == [])
    }

    @Test("hook mode: a failing command fails the script, and stderr says what failed", arguments: Script.all)
    func hookFailure(script: Script) throws {
        let fakes = try FakeTools()
        let change = Change.landscape
        var environment = change.hookEnvironment(previous: "portrait-primary")
        environment["FAKE_FAIL"] = script.tool
        let run = try fakes.run(script.url, arguments: [change.screen, "portrait-primary"], environment: environment)
        #expect(run.status != 0 && run.status != 100)
        #expect(run.stderr.contains("failed") && run.stderr.contains(script.tool), "\(run.stderr)")
    }

    @Test(
        "a session socket that is not there: one line naming the variable, exit 1",
        arguments: [
            ("orientd-rotate-sway", "SWAYSOCK"), ("orientd-rotate-wlroots", "WAYLAND_DISPLAY"), ("orientd-rotate-niri", "NIRI_SOCKET"),
        ])
    func unreachable(name: String, variable: String) throws {
        let fakes = try FakeTools()
        let script = try #require(Script.all.first { $0.name == name })
        var environment = Change.landscape.hookEnvironment(previous: "portrait-primary")
        environment[variable] = "/tmp/orientd-no-such-socket"
        environment["FAKE_FAIL"] = script.tool  // as the real tool fails to connect
        let run = try fakes.run(script.url, environment: environment)
        #expect(run.status == 1)
        #expect(
            run.stderr == "\(name): cannot reach the compositor: \(variable) is '/tmp/orientd-no-such-socket', but there is no socket"
                + " /tmp/orientd-no-such-socket (is the compositor running? run the script from its session)\n", "\(run.stderr)")
    }

    @Test("ORIENTD_OUTPUT is the output, without asking the compositor", arguments: Script.all)
    func outputOverride(script: Script) throws {
        let fakes = try FakeTools()
        let change = Change.all[2]
        var environment = change.hookEnvironment(previous: "portrait-primary")
        environment["ORIENTD_OUTPUT"] = "HDMI-A-1"
        let run = try fakes.run(script.url, arguments: [change.screen, "portrait-primary"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.calls == script.calls(change.words, "HDMI-A-1"))
    }

    @Test("no session to reach: says which variable is missing, before anything else, and fails", arguments: Script.all)
    func noSession(script: Script) throws {
        let fakes = try FakeTools()
        var environment = Change.landscape.hookEnvironment(previous: "portrait-primary")
        for variable in ["DISPLAY", "SWAYSOCK", "WAYLAND_DISPLAY", "HYPRLAND_INSTANCE_SIGNATURE", "NIRI_SOCKET"] {
            environment[variable] = ""
        }
        let run = try fakes.run(script.url, arguments: [Change.landscape.screen, "portrait-primary"], environment: environment)
        #expect(run.status == 1)
        #expect(run.calls == [], "no command can reach a session that is not there")
        #expect(run.stderr.contains("cannot reach the session"), "\(run.stderr)")
        #expect(!run.stderr.contains("ORIENTD_OUTPUT"), "the output is not what is wrong: \(run.stderr)")
    }

    @Test("--help says how to use both modes", arguments: Script.all)
    func help(script: Script) throws {
        let run = try FakeTools().run(script.url, arguments: ["--help"])
        #expect(run.status == 0)
        #expect(run.calls == [])
        for phrase in ["orientd run --exec \(script.name)", "Stream mode", "Hook mode", "ORIENTD_OUTPUT"] {
            #expect(run.stdout.contains(phrase), "\(phrase)")
        }
    }

    // MARK: One tool's details

    @Test("x11: ORIENTD_TOUCH_DEVICES replaces the devices found; empty maps none")
    func touchDeviceOverride() throws {
        let fakes = try FakeTools()
        var environment = Change.landscape.hookEnvironment(previous: "")
        environment["ORIENTD_OUTPUT"] = "eDP-1"
        environment["ORIENTD_TOUCH_DEVICES"] = "ELAN Touchscreen, 17"
        let listed = try fakes.run(Self.hook("orientd-rotate-x11"), environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.calls == [
                "xrandr --query", "xrandr --output eDP-1 --rotate right", "xinput map-to-output ELAN Touchscreen eDP-1",
                "xinput map-to-output 17 eDP-1",
            ])
        environment["ORIENTD_TOUCH_DEVICES"] = ""
        let none = try fakes.run(Self.hook("orientd-rotate-x11"), environment: environment)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.calls == ["xrandr --query", "xrandr --output eDP-1 --rotate right"])
    }

    @Test("x11: the screen turned but touch mapping failed: a warning naming the device, exit 0")
    func x11TouchMappingFails() throws {
        let fakes = try FakeTools()
        var environment = Change.landscape.hookEnvironment(previous: "")
        environment["FAKE_FAIL"] = "xinput"
        environment["ORIENTD_TOUCH_DEVICES"] = "10"
        let run = try fakes.run(Self.hook("orientd-rotate-x11"), environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.calls.contains("xrandr --output eDP-2 --rotate right"))
        #expect(run.stderr.contains("rotated eDP-2 to right, but mapping touch input failed: device 10"), "\(run.stderr)")
        // Not found by listing either: the same warning, the rotation still applied.
        environment.removeValue(forKey: "ORIENTD_TOUCH_DEVICES")
        let listing = try fakes.run(Self.hook("orientd-rotate-x11"), environment: environment)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stderr.contains("mapping touch input failed: xinput list --long failed"), "\(listing.stderr)")
    }

    @Test("x11: without xinput installed, one warning for the whole stream and every rotation applied")
    func x11WithoutXinput() throws {
        let fakes = try FakeTools()
        try FileManager.default.removeItem(at: fakes.bin.appendingPathComponent("xinput"))
        // Only the fakes and the shell's own tools: a PATH with no real xinput on it.
        let tools = fakes.scratch.directory.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        for tool in ["sh", "sed", "awk", "tr", "grep", "cat", "dirname", "readlink", "printf"] {
            for dir in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
                try? FileManager.default.createSymbolicLink(
                    atPath: tools.appendingPathComponent(tool).path, withDestinationPath: "\(dir)/\(tool)")
            }
        }
        let stream = Change.all.enumerated().map { i, change in change.event(previous: i == 0 ? nil : Change.all[i - 1].screen) }
        let run = try fakes.run(
            Self.hook("orientd-rotate-x11"), environment: ["PATH_OVERRIDE": "\(fakes.bin.path):\(tools.path)"],
            stdin: stream.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.calls.filter { $0.hasPrefix("xrandr --output") }.count == Change.all.count, "\(run.calls)")
        let warnings = run.stderr.components(separatedBy: "xinput is not installed").count - 1
        #expect(warnings == 1, "\(run.stderr)")
    }

    @Test("x11: an output the server does not have fails, naming the ones it has, and turns nothing")
    func x11UnknownOutput() throws {
        let run = try Self.landscape(through: "orientd-rotate-x11", with: ["ORIENTD_OUTPUT": "eDP-9"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("there is no output 'eDP-9'; the outputs are: HDMI-1 DP-1 eDP-2"), "\(run.stderr)")
        #expect(!run.calls.contains { $0.hasPrefix("xrandr --output") }, "\(run.calls)")
    }

    @Test("hyprland with a Lua configuration: keyword refused, the same rule given through eval, read back")
    func hyprlandLua() throws {
        let run = try Self.landscape(through: "orientd-rotate-hyprland", with: ["FAKE_LUA": "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let n = Change.landscape.words.hyprland
        #expect(
            run.calls.dropFirst(3).first
                == #"hyprctl --batch eval hl.monitor({ output = "eDP-2", mode = "2256x1504@59.99900", position = "0x0", scale = 1.50, transform = \#(n) })"#
                + " ; eval hl.config({ input = { touchdevice = { transform = \(n) }, tablet = { transform = \(n) } } })"
                + " ; dispatch hl.dsp.force_renderer_reload()", "\(run.calls)")
        #expect(run.calls.last == "hyprctl monitors", "read back: \(run.calls)")
    }

    @Test("hyprland: an ok that changed nothing is a failure, naming the transform it still has")
    func hyprlandNotApplied() throws {
        // The fake answers ok and keeps the transform it had.
        let run = try Self.landscape(through: "orientd-rotate-hyprland", with: ["FAKE_STUCK": "1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("eDP-2's transform is 0 2 s later, not \(Change.landscape.words.hyprland)"), "\(run.stderr)")
    }

    @Test("hyprland: hyprctl exiting 0 with an answer other than ok is a failure")
    func hyprlandRefusal() throws {
        let run = try Self.landscape(through: "orientd-rotate-hyprland", with: ["FAKE_REPLY": "ok\ninvalid monitor rule\nok"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("invalid monitor rule"), "\(run.stderr)")
    }
}

extension RotationScriptTests {
    /// The script `name` in hook mode, turning the screen to landscape against the fake
    /// tools, with `environment` added.
    static func landscape(through name: String, with environment: [String: String]) throws -> FakeTools.Run {
        try FakeTools().run(hook(name), environment: Change.landscape.hookEnvironment(previous: "").merging(environment) { $1 })
    }
}

extension RotationScriptTests {
    /// A directory of fake tools, first in PATH, each logging its arguments (one call a line)
    /// and answering the queries the scripts make, with an external output listed before the
    /// built-in panel. FAKE_FAIL=TOOL makes TOOL fail; FAKE_REPLY replaces hyprctl's "ok"s.
    struct FakeTools {
        struct Run {
            var status: Int32
            var stdout: String
            var stderr: String
            var calls: [String]
        }

        enum Input {
            case text(String)
            case pipe(Pipe)
        }

        static let tools = ["xrandr", "xinput", "swaymsg", "wlr-randr", "hyprctl", "niri"]

        /// Each of the fake Hyprland's monitors: its mode, position and scale, as its rule.
        static let hyprlandRule = [
            "HDMI-A-1": "1920x1080@60.00000,1920x0,1.00", "eDP-2": "2256x1504@59.99900,0x0,1.50",
            "DP-3": "2560x1440@143.97300,3840x0,1.00", "DSI-1": "800x1280@60.00000,0x1080,1.00",
            "eDP-1": "1920x1200@60.00000,6400x0,1.25",
        ]

        static let fake = #"""
            #!/bin/sh
            name=${0##*/}
            { printf '%s' "$name"; for a; do printf ' %s' "$a"; done; printf '\n'; } >>"$FAKE_LOG"
            if [ "${FAKE_FAIL-}" = "$name" ]; then echo "$name: fake failure" >&2; exit 1; fi
            case "$name${*:+ $*}" in
            "xrandr --query")
                echo 'Screen 0: minimum 320 x 200, current 3840 x 1080, maximum 16384 x 16384'
                echo 'HDMI-1 connected 1920x1080+1920+0 (normal left inverted right x axis y axis) 527mm x 296mm'
                echo '   1920x1080     60.00*+'
                echo 'DP-1 disconnected (normal left inverted right x axis y axis)'
                echo 'eDP-2 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 294mm x 165mm'
                echo 'eDP-1 disconnected (normal left inverted right x axis y axis)'
                echo 'DP-3 disconnected (normal left inverted right x axis y axis)'
                echo 'HDMI-A-1 disconnected (normal left inverted right x axis y axis)'
                echo 'DSI-1 disconnected (normal left inverted right x axis y axis)'
                ;;
            "xinput list --long")
                printf '⎡ Virtual core pointer                    \tid=2\t[master pointer  (3)]\n'
                printf '\tReporting 1 classes:\n\t\tClass originated from: 10. Type: XITouchClass\n'
                printf '\t\t  Touch mode: direct\n'
                printf '⎜   ↳ Virtual core XTEST pointer              \tid=4\t[slave  pointer  (2)]\n'
                printf '⎜   ↳ ELAN2514:00 04F3:2817                   \tid=10\t[slave  pointer  (2)]\n'
                printf '\tReporting 1 classes:\n\t\tClass originated from: 10. Type: XITouchClass\n'
                printf '\t\t  Touch mode: direct\n'
                printf '⎜   ↳ SYNA3602:00 0911:5288 Touchpad          \tid=12\t[slave  pointer  (2)]\n'
                printf '\tReporting 1 classes:\n\t\tClass originated from: 12. Type: XITouchClass\n'
                printf '\t\t  Touch mode: dependent\n'
                printf '⎜   ↳ ELAN2514:00 04F3:2817 Stylus Pen (0)    \tid=11\t[slave  pointer  (2)]\n'
                printf '⎣ Virtual core keyboard                   \tid=3\t[master keyboard (2)]\n'
                printf '    ↳ Virtual core XTEST keyboard             \tid=5\t[slave  keyboard (3)]\n'
                printf '    ↳ ELAN2514:00 04F3:2817 Pen               \tid=13\t[slave  keyboard (3)]\n'
                ;;
            "swaymsg -t get_outputs -r")
                printf '%s\n' '[' '  {' '    "id": 3,' '    "type": "output",' '    "name": "HDMI-A-1",' \
                    '    "rect": { "x": 1920, "y": 0 }' '  },' '  {' '    "id": 4,' '    "type": "output",' \
                    '    "name": "eDP-2",' '    "make": "Sharp Corporation"' '  },' \
                    '  { "id": 5, "type": "output", "name": "DP-3" },' '  { "id": 6, "type": "output", "name": "DSI-1" },' \
                    '  { "id": 7, "type": "output", "name": "eDP-1" }' ']'
                ;;
            "hyprctl monitors")
                # Each monitor's transform is what the last batch gave it (FAKE_LOG.NAME).
                id=0
                for monitor in "HDMI-A-1 1920x1080@60.00000 1920x0 1.00" "eDP-2 2256x1504@59.99900 0x0 1.50" \
                    "DP-3 2560x1440@143.97300 3840x0 1.00" "DSI-1 800x1280@60.00000 0x1080 1.00" "eDP-1 1920x1200@60.00000 6400x0 1.25"; do
                    set -- $monitor
                    printf 'Monitor %s (ID %s):\n\t%s at %s\n\tdescription: fake\n\tactive workspace: 2 (2)\n' "$1" "$id" "$2" "$3"
                    printf '\tscale: %s\n\ttransform: %s\n\tfocused: no\n\n' "$4" "$(cat "$FAKE_LOG.$1" 2>/dev/null || echo 0)"
                    id=$((id + 1))
                done
                ;;
            "hyprctl --batch keyword"*)
                # A Lua configuration refuses keyword, each one; a legacy one applies them.
                if [ -n "${FAKE_LUA-}" ]; then
                    echo "keyword can't work with non-legacy parsers. Use eval."
                    exit 0
                fi
                [ -n "${FAKE_STUCK-}" ] || printf '%s\n' "$*" | sed -n 's/.*keyword monitor \([^,]*\),.*,transform,\([0-9]\) .*/\2/p' >"$FAKE_LOG.$(printf '%s\n' "$*" | sed -n 's/.*keyword monitor \([^,]*\),.*/\1/p')"
                printf '%s\n' "${FAKE_REPLY-ok ok ok ok}"
                ;;
            "hyprctl --batch eval"*)
                printf '%s\n' "$*" | sed -n 's/.*transform = \([0-9]\) .*/\1/p' >"$FAKE_LOG.$(printf '%s\n' "$*" | sed -n 's/.*output = "\([^"]*\)".*/\1/p')"
                printf '%s\n' "${FAKE_REPLY-ok ok ok}"
                ;;
            "niri msg outputs")
                printf 'Output "Dell Inc. DELL U2719D ABC" (HDMI-A-1)\n  Current mode: 2560x1440 @ 59.951 Hz\n\n'
                printf 'Output "Sharp Corporation 0x14D0 Unknown" (eDP-2)\n  Current mode: 1920x1080 @ 60.000 Hz\n'
                ;;
            "wlr-randr")
                printf 'HDMI-A-1 "Dell Inc. DELL U2719D (HDMI-A-1)"\n  Enabled: yes\n  Modes:\n    2560x1440 px\n'
                printf 'eDP-2 "Sharp Corporation 0x14D0 (eDP-2)"\n  Enabled: yes\n'
                printf 'DP-3 "Unknown (DP-3)"\n  Enabled: no\nDSI-1 "Unknown (DSI-1)"\n  Enabled: no\n'
                ;;
            esac
            """#

        let scratch: Scratch
        let bin: URL
        let log: URL

        init() throws {
            scratch = try Scratch()
            bin = scratch.directory.appendingPathComponent("bin")
            log = scratch.directory.appendingPathComponent("calls.log")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let fake = bin.appendingPathComponent("fake")
            try Self.fake.write(to: fake, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
            for tool in Self.tools {
                try FileManager.default.createSymbolicLink(
                    atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "fake")
            }
            // The sockets the session's variables name, there as in a session (the scripts
            // look for them when finding the output failed).
            for name in ["wayland-1", "sway-ipc.sock", "niri.sock"] {
                let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(descriptor) }
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                let path = scratch.directory.appendingPathComponent(name).path
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                try #require(bound == 0, "binding \(path)")
            }
        }

        /// The calls logged since the last start.
        var calls: [String] {
            guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Starts `program` (a script, or orientd running one) with the fakes first in PATH and
        /// no environment but `environment`, standard output and error into files, and a fresh log.
        func start(_ program: URL, arguments: [String] = [], environment: [String: String] = [:], stdin: Input)
            throws -> Process
        {
            try? FileManager.default.removeItem(at: log)
            let process = Process()
            process.executableURL = program
            process.arguments = arguments
            // Each script's session variable is set, as in a session; a test may empty one.
            let directory = scratch.directory.path
            let session = [
                "DISPLAY": ":99", "SWAYSOCK": "\(directory)/sway-ipc.sock", "WAYLAND_DISPLAY": "wayland-1",
                "XDG_RUNTIME_DIR": directory, "HYPRLAND_INSTANCE_SIGNATURE": "fake", "NIRI_SOCKET": "\(directory)/niri.sock",
            ]
            process.environment = session.merging(environment, uniquingKeysWith: { $1 }).merging(
                ["PATH": environment["PATH_OVERRIDE"] ?? "\(bin.path):/usr/bin:/bin", "FAKE_LOG": log.path],
                uniquingKeysWith: { $1 })
            switch stdin {
            case .text(let text):
                let path = try scratch.write("stdin", text)
                process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            case .pipe(let pipe):
                process.standardInput = pipe
            }
            func emptyFile(_ name: String) throws -> FileHandle {
                let url = scratch.directory.appendingPathComponent(name)
                try Data().write(to: url)
                return try FileHandle(forWritingTo: url)
            }
            process.standardOutput = try emptyFile("stdout")
            process.standardError = try emptyFile("stderr")
            try process.start()
            return process
        }

        /// Runs `program` to its end (see `start`), `stdin` on its standard input.
        func run(_ program: URL, arguments: [String] = [], environment: [String: String] = [:], stdin: String = "")
            throws -> Run
        {
            let process = try start(program, arguments: arguments, environment: environment, stdin: .text(stdin))
            process.waitForEnd()
            func read(_ name: String) -> String {
                (try? String(contentsOf: scratch.directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
            }
            return Run(status: process.terminationStatus, stdout: read("stdout"), stderr: read("stderr"), calls: calls)
        }
    }
}
