import Foundation
import Glibc
import OrientdTestSupport
import Testing

/// The rotation scripts against Debian 13's own compositors, run headless in a Debian 13
/// root on this Debian 12 machine (`Tests/Fixtures/screen/debian13-desktop`,
/// `desktop-session`): sway 1.10, labwc 0.8 and phoc 0.46 (Phosh's compositor), each
/// nested in a headless sway whose screenshot shows its framebuffer as the panel would,
/// so the direction is judged by where the marker picture lands; gnome-shell 48 and kwin
/// 6.3, judged by the compositor's own state and what a Wayland client is told; Phosh 0.46
/// on phoc beside iio-sensor-proxy, for its own rotation. One start of each compositor
/// serves all its cases.
///
/// wayfire 0.9 is not among them: it renders with GLES only and exits at its start here
/// ("Failed to get DRM file descriptor"): this machine has no DRM device.
@Suite(.serialized, .enabled(if: Debian13Desktop.counterpart.missing.isEmpty, "\(Debian13Desktop.skipReason)"))
struct Debian13DesktopTests {
    @Test(
        "Debian 13: all twelve changes in stream mode, each quarter turn from its opposite in hook mode, a wrong output refused",
        arguments: Debian13Desktop.Kind.turned)
    func turns(kind: Debian13Desktop.Kind) throws {
        let desktop = try Debian13Desktop(kind)
        // GNOME's own rotation off, as README says to (gnomeTakenOver: the script does it).
        if kind == .gnomeShell { try desktop.lockGnomeRotation() }
        let changes = try SwayCompositorTests.events()

        let script = try desktop.script(kind.hook)
        for change in changes {
            try script.send(change.line)
            let angle = try #require(change.event["angle"] as? Int)
            try desktop.expectTurned(angle: angle, after: "stream mode, \(change.event["previous"] ?? "start") → \(angle)°")
        }
        #expect(script.finish() == 0, "\(script.stderr)")
        #expect(script.stderr.isEmpty, "\(script.stderr)")

        // Hook mode, as orientd run --exec calls it: each target from the opposite one.
        for change in changes.dropFirst() {
            let angle = try #require(change.event["angle"] as? Int)
            let run = try desktop.client([kind.hook.path], environment: hookEnvironment(for: change.event, line: change.line))
            #expect(run.status == 0, "hook mode to \(angle)°: \(run.stderr)")
            try desktop.expectTurned(angle: angle, after: "hook mode, \(change.event["previous"] ?? "start") → \(angle)°")
        }

        // An output that is not there: status 1, the real one named, the screen kept.
        let wrong = try desktop.client(
            [kind.hook.path],
            environment: [
                "ORIENTD_SCREEN": "landscape-primary", "ORIENTD_ANGLE": "90", "ORIENTD_TRANSFORM": "270", "ORIENTD_OUTPUT": "eDP-9",
            ])
        #expect(wrong.status == 1 && wrong.stderr.contains("eDP-9") && wrong.stderr.contains(desktop.output), "\(wrong.stderr)")
        try desktop.expectTurned(angle: 0, after: "a refused output")
    }
}

extension Debian13DesktopTests {
    /// Run outside the session (a hook of a system service, a stale variable): the real
    /// tools of Debian 13 fail to connect, and the script says so in one line.
    @Test(
        "no compositor at the session's socket: one line naming the variable and the socket, exit 1",
        arguments: [HeadlessDesktop.Kind.kde.hook, Debian13Desktop.Kind.labwc.hook, Debian13Desktop.Kind.sway.hook])
    func unreachable(hook: URL) throws {
        _ = try Debian13Desktop.root.get()
        let run = try OrientdProcess.run(
            [
                "run", "env", "XDG_RUNTIME_DIR=/tmp", "WAYLAND_DISPLAY=orientd-none", "SWAYSOCK=/tmp/orientd-none.sock",
                "ORIENTD_SCREEN=landscape-primary", "ORIENTD_TRANSFORM=270", "ORIENTD_ANGLE=90", hook.path,
            ], executable: Debian13Desktop.runner)
        let name = hook.lastPathComponent
        #expect(run.status == 1, "\(name): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("cannot reach the compositor") && lines[0].contains("orientd-none"),
            "\(name): \(run.stderr)")
    }

    /// kwin 6 writes each output's policy into kwinoutputconfig.json when it applies a
    /// change (InTabletMode when none was chosen). iio-sensor-proxy's name on the session's
    /// system bus is taken by a stand-in: what is tested is the reading of kwin's own file.
    @Test("Plasma 6: the script warns once that kwin rotates the panel too, until its policy is Never")
    func kwinPolicy() throws {
        let desktop = try Debian13Desktop(.kwin)
        try desktop.background([
            "python3", "-c",
            "from gi.repository import Gio, GLib; Gio.bus_own_name(Gio.BusType.SYSTEM, 'net.hadess.SensorProxy', 0, None, None, None);"
                + " GLib.MainLoop().run()",
        ])
        _ = try ChildProcesses.waitFor("the stand-in's name on the system bus", seconds: 10) {
            try desktop.client(["busctl", "--system", "list", "--no-legend"]).stdout.contains("net.hadess.SensorProxy") ? true : nil
        }
        let hook = HeadlessDesktop.Kind.kde.hook.path
        let turn = ["ORIENTD_SCREEN": "landscape-primary", "ORIENTD_TRANSFORM": "270"]
        let first = try desktop.client([hook], environment: turn)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.contains("kwin rotates \(desktop.output) itself too (its automatic rotation is InTabletMode"), "\(first.stderr)")
        let config = "\(desktop.runtime)/config/kwinoutputconfig.json"
        _ = try desktop.client(["sed", "-i", "s/\"autoRotation\": \"[A-Za-z]*\"/\"autoRotation\": \"Never\"/", config])
        let never = try desktop.client([hook], environment: ["ORIENTD_SCREEN": "portrait-primary", "ORIENTD_TRANSFORM": "normal"])
        #expect(never.status == 0 && never.stderr.isEmpty, "\(never.stderr)")
        try desktop.expectTurned(angle: 0, after: "the policy set to Never")
    }

    /// Phosh turns the screen from iio-sensor-proxy as GNOME does while GNOME's rotation
    /// lock is off, as it is on a new install. orientd's script takes over from it: it locks
    /// Phosh's rotation while it runs (off again as the events end), and a touch of the
    /// quick setting toggles orientd's lock instead. Real Phosh, iio-sensor-proxy, polkitd
    /// and orientd; the accelerometer iio-sensor-proxy reads is umockdev's, and a polkit rule
    /// stands in for logind's active session (`desktop-session`). monitor-sensor keeps the
    /// sensor claimed (and read) once Phosh lets it go.
    @Test(
        "Phosh at its defaults, beside iio-sensor-proxy: orientd's script takes over, the screen stays where orientd put it while the sensor turns, the quick setting toggles orientd's lock, and Phosh rotates again once the events end"
    )
    func phoshTakenOver() throws {
        let desktop = try Debian13Desktop(.phosh)
        try desktop.background(["monitor-sensor"])
        let scriptLog = { desktop.log("script.log") }
        let phoshLog = { desktop.log("phosh.log") }
        #expect(try desktop.gnomeRotationLock() == "false", "a new install's setting")

        // What is taken over: with its lock off, Phosh turns the screen from the sensor.
        try desktop.tilt(0, 1024, 0, until: "bottom-up")
        try desktop.expectTurned(angle: 180, after: "iio-sensor-proxy's bottom-up, Phosh's rotation at its default")

        // orientd says landscape; the sensor iio-sensor-proxy reads says otherwise.
        let g = 9.80665
        let environment = try desktop.turnedByOrientd([(-g, 0, 0.3)], seconds: 120)
        try desktop.expectTurned(angle: 90, after: "orientd's landscape, its script taking over")
        #expect(try desktop.gnomeRotationLock() == "true")
        #expect(scriptLog().contains("Phosh rotates the screen itself too"), "\(scriptLog())")
        _ = try ChildProcesses.waitFor("Phosh to let the sensor go", seconds: 10, evidence: phoshLog) {
            phoshLog().contains("Released accelerometer") ? true : nil
        }

        // Three turns of the sensor over 10 s and more: the screen stays where orientd put it.
        var seen: [String] = []
        for (x, y, orientation) in [(-1024, 0, "right-up"), (0, -1024, "normal"), (0, 1024, "bottom-up")] {
            try desktop.tilt(x, y, 0, until: orientation)
            let until = Date().addingTimeInterval(3.5)
            while Date() < until {
                let state = try desktop.state()
                if state.quarterTurns != 3 { seen.append("\(orientation): \(state)") }
                usleep(250_000)
            }
        }
        #expect(seen.isEmpty, "the screen left orientd's landscape: \(seen); Phosh's log: \(phoshLog())")

        // Phosh turns the screen from the sensor (bottom-up) while its lock is off, so a
        // touch of the quick setting may turn it: the script turns it back.
        try desktop.expectQuickSettingTogglesOrientd(environment: environment, angle: 90)

        // The events end: Phosh's rotation is given back, and it turns the screen from the
        // sensor again.
        try desktop.endEvents()
        try desktop.expectTurned(angle: 180, after: "the events ended, Phosh's rotation given back")
        let lines = scriptLog().split(separator: "\n")
        #expect(lines.count == 1, "the script said only that it took over: \(scriptLog())")
    }

    /// GNOME 48 turns only a built-in panel in touch mode by itself, which its headless
    /// output is not: what is shown here is the script's part, against the real
    /// gnome-shell, gsettings and iio-sensor-proxy: GNOME's rotation locked while the events
    /// flow, its Auto Rotate quick setting toggling orientd's lock, and the lock given
    /// back as they end (Phosh's case shows the same code keeping a real rotation away).
    @Test(
        "GNOME 48 at its defaults, beside iio-sensor-proxy: the script locks GNOME's rotation while the events flow, Auto Rotate toggles orientd's lock, and GNOME's rotation is given back at the end"
    )
    func gnomeTakenOver() throws {
        let desktop = try Debian13Desktop(.gnomeShell)
        #expect(try desktop.gnomeRotationLock() == "false", "a new install's setting")
        let g = 9.80665
        let environment = try desktop.turnedByOrientd([(-g, 0, 0.3)], seconds: 120)
        try desktop.expectTurned(angle: 90, after: "orientd's landscape, its script taking over")
        let scriptLog = desktop.log("script.log")
        #expect(scriptLog.contains("GNOME rotates the screen itself too"), "\(scriptLog)")
        #expect(try desktop.gnomeRotationLock() == "true")
        try desktop.expectQuickSettingTogglesOrientd(environment: environment, angle: 90)
        try desktop.endEvents()
    }

    /// A hook lives for one change: it locks Phosh's rotation for good, and says how to undo it.
    @Test("Phosh at its defaults, a hook: Phosh's rotation locked for good, and how to give it back said")
    func phoshHook() throws {
        let desktop = try Debian13Desktop(.phosh)
        try desktop.background(["monitor-sensor"])
        let hook = Debian13Desktop.Kind.phosh.hook.path
        let landscape = try desktop.client([hook], environment: ["ORIENTD_SCREEN": "landscape-primary", "ORIENTD_TRANSFORM": "270"])
        #expect(landscape.status == 0, "\(landscape.stderr)")
        #expect(
            landscape.stderr.contains("its rotation is now locked") && landscape.stderr.contains("orientation-lock false"),
            "\(landscape.stderr)")
        try desktop.expectTurned(angle: 90, after: "the hook's landscape")
        try desktop.tilt(0, 1024, 0, until: "bottom-up")
        usleep(2_000_000)
        try desktop.expectTurned(angle: 90, after: "iio-sensor-proxy's bottom-up, Phosh's rotation locked by the hook")
        let again = try desktop.client([hook], environment: ["ORIENTD_SCREEN": "portrait-primary", "ORIENTD_TRANSFORM": "normal"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }
}

extension Debian13DesktopTests {
    /// Phosh keeps a phone's lock screen in portrait: as the session locks it turns the
    /// built-in panel to portrait, and as it unlocks it puts back the transform it saved,
    /// whatever orientd said meanwhile. orientd-rotate-wlroots, fed by `orientd monitor`,
    /// holds orientd in portrait while locked (an app's request) and turns the panel to
    /// orientd's screen once unlocked. Real Phosh 0.46, phoc and orientd; logind is
    /// python-dbusmock's, whose Lock and Unlock are what `loginctl lock-session` and
    /// `unlock-session` send (`desktop-session`).
    @Test(
        "Phosh's lock screen: portrait while locked (orientd holds a request), the device's orientation once unlocked, though Phosh puts back another"
    )
    func phoshLockScreen() throws {
        let desktop = try Debian13Desktop(.phosh)
        // orientd turns the screen, so Phosh's own rotation is locked, as the script says.
        try desktop.lockGnomeRotation()
        // The device, at the recording's own pace: landscape-left for 15 s, then portrait.
        let g = 9.80665
        let environment = try desktop.turnedByOrientd([(-g, 0, 0.3), (0, -g, 0.3), (0, -g, 0.3)], seconds: 15)
        try desktop.expectTurned(angle: 90, after: "orientd's landscape, the session unlocked")
        let scriptLog = { desktop.log("script.log") }
        let phoshLog = { desktop.log("phosh.log") }

        // Locked with the device in landscape: portrait, orientd's request holding it.
        try desktop.session("Lock")
        try desktop.expectTurned(angle: 0, after: "the session locked (Phosh's portrait)")
        let held = try ChildProcesses.waitFor("orientd to hold the script's request", seconds: 10, evidence: scriptLog) {
            let status = try desktop.orientd(["ctl", "status"], environment: environment)
            return status.contains(#""requested":["portrait-primary","portrait-secondary"]"#) ? status : nil
        }
        #expect(held.contains(#""type":"portrait-primary""#) && held.contains(#""decided":"request""#), "\(held)")
        // Unlocked: orientd's landscape again, whatever Phosh put back.
        let restored = { phoshLog().components(separatedBy: "Restoring transform").count - 1 }
        try desktop.session("Unlock")
        _ = try ChildProcesses.waitFor("Phosh to unlock", seconds: 10, evidence: phoshLog) { restored() == 1 ? true : nil }
        try desktop.expectTurned(angle: 90, after: "the session unlocked, the device in landscape")

        // Locked again, and the device turns to portrait meanwhile: orientd's screen stays
        // portrait through the unlock (no event comes), but Phosh puts back the landscape
        // it saved as it locked; the script turns the panel back to portrait.
        try desktop.session("Lock")
        try desktop.expectTurned(angle: 0, after: "the session locked again")
        _ = try ChildProcesses.waitFor("the device to turn to portrait", seconds: 30, evidence: scriptLog) {
            let status = try desktop.orientd(["ctl", "status"], environment: environment)
            return status.contains(#""device":"portrait""#) ? true : nil
        }
        try desktop.session("Unlock")
        _ = try ChildProcesses.waitFor("Phosh to unlock", seconds: 10, evidence: phoshLog) { restored() == 2 ? true : nil }
        #expect(
            phoshLog().contains("Saving prelock transform 3") && phoshLog().contains("Restoring transform 3"),
            "Phosh saved landscape as it locked and put it back as it unlocked: \(phoshLog())")
        // The screen from the unlock on: Phosh's landscape, then, held for 1.5 s, portrait.
        var seen: [Int] = []
        var steadySince: Date?
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let turns = try desktop.state().quarterTurns
            if seen.last != turns { seen.append(turns) }
            steadySince = turns == 0 ? steadySince ?? Date() : nil
            if let steadySince, Date().timeIntervalSince(steadySince) > 1.5 { break }
            usleep(100_000)
        }
        #expect(seen.last == 0 && steadySince != nil, "quarter turns seen after the unlock: \(seen); the script said: \(scriptLog())")
        let phoshSaid = phoshLog().split(separator: "\n").filter { $0.contains("prelock") || $0.contains("Restoring") }
        print("Phosh's lock screen: after the second unlock the panel went through quarter turns \(seen); Phosh: \(phoshSaid)")
        #expect(scriptLog().isEmpty, "\(scriptLog())")
    }
}

extension Debian13DesktopTests {
    /// A 2-in-1's posture: orientd turns the screen only in tablet mode and puts it back
    /// in its natural orientation as the machine goes to laptop mode (docs/layers.md,
    /// rule 2), through the desktop's script, fed by `orientd monitor`, on the real
    /// compositor. The mode is told with `orientd ctl mode`, as a machine without a
    /// tablet-mode switch would; the switch itself is read on real kernels
    /// (RealKernelTests).
    @Test(
        "a 2-in-1 on Debian 13's GNOME and Plasma: turned in tablet mode, back to natural in laptop mode, turned again in tablet mode",
        arguments: [Debian13Desktop.Kind.gnomeShell, .kwin])
    func posture(kind: Debian13Desktop.Kind) throws {
        let desktop = try Debian13Desktop(kind)
        if kind == .gnomeShell { try desktop.lockGnomeRotation() }
        let g = 9.80665
        let environment = try desktop.turnedByOrientd([(-g, 0, 0.3)], seconds: 60)
        try desktop.expectTurned(angle: 90, after: "orientd's landscape, the mode unknown (a tablet)")
        for (mode, angle) in [("laptop", 0), ("tablet", 90), ("laptop", 0)] {
            let told = try desktop.orientd(["ctl", "mode", mode], environment: environment)
            #expect(told.contains(#""ok":true"#), "\(told)")
            try desktop.expectTurned(angle: angle, after: "mode \(mode), the device in landscape")
        }
        #expect(desktop.log("script.log").isEmpty, "\(desktop.log("script.log"))")
    }
}

/// One of Debian 13's compositors, started by `desktop-session` in the cached Debian 13
/// root, with its runtime directory under the root's /run.
final class Debian13Desktop {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sway, labwc, phoc, phosh
        case gnomeShell = "gnome-shell"
        case kwin
        /// Those turned in every direction. Phosh's shell covers the marker picture, and
        /// its compositor is phoc's, turned here: Phosh has its own case.
        static let turned = allCases.filter { $0 != .phosh }
        /// Nested in the monitor, read back with wlr-randr.
        var isWlroots: Bool { [.sway, .labwc, .phoc, .phosh].contains(self) }
        /// Its panel can be pictured: nothing but the marker covers it.
        var isPictured: Bool { isWlroots && self != .phosh }
        var hook: URL {
            switch self {
            case .sway: Repository.hook("orientd-rotate-sway")
            case .labwc, .phoc, .phosh: Repository.hook("orientd-rotate-wlroots")
            case .gnomeShell: Repository.hook("orientd-rotate-gnome")
            case .kwin: Repository.hook("orientd-rotate-kde")
            }
        }
        var testDescription: String {
            switch self {
            case .sway: "sway 1.10"
            case .labwc: "labwc 0.8"
            case .phoc: "phoc 0.46 (Phosh's compositor)"
            case .phosh: "Phosh 0.46 on phoc, beside iio-sensor-proxy"
            case .gnomeShell: "GNOME Shell 48"
            case .kwin: "KDE Plasma 6.3 (kwin)"
            }
        }
    }

    static let counterpart = MissingCounterpart(programs: ["mmdebstrap", "unshare", "chroot", "setsid"], needsRoot: true)
    static let skipReason = counterpart.skipReason(
        suite: "Debian13DesktopTests (the rotation scripts against Debian 13's compositors, in a Debian 13 root)",
        why: "scripts/test --all installs what makes the root and asks for this tier.")

    private static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/screen")
    static let runner = fixtures.appendingPathComponent("debian13-desktop")
    private static let session = fixtures.appendingPathComponent("desktop-session").path

    /// The root, made once (about 3 minutes from Debian's registry) and cached.
    static let root: Result<String, OutputState.Failure> = {
        guard let made = try? OrientdProcess.run(["root"], executable: runner), made.status == 0 else {
            return .failure(OutputState.Failure(description: "the Debian 13 desktop root could not be made"))
        }
        return .success(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    let kind: Kind
    /// The runtime directory, as the root sees it and as this machine does.
    let runtime: String
    private let hostRuntime: String
    private let root: String
    private let process = Process()
    /// The session's and the clients' setsid, reaped by waitpid (Process.waitUntilExit spun
    /// for ever on one here, under the full suite's signal masks), and the ids of the
    /// sessions they lead, read when each starts: a session whose leader has ended is still
    /// killed whole.
    private let children = ChildProcesses()
    private var sessions: [String] = []
    private let input = Pipe()
    private(set) var output = ""
    /// The monitor's Wayland display, for the nested kinds ("" for the others).
    private var monitor = ""

    init(_ kind: Kind) throws {
        self.kind = kind
        let root = try Self.root.get()
        self.root = root
        runtime = "/run/orientd-desktop-\(UUID().uuidString)"
        hostRuntime = root + runtime
        try FileManager.default.createDirectory(atPath: hostRuntime, withIntermediateDirectories: true)
        let log = hostRuntime + ".log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        // setsid: the session leads one of its own, so that all it started can be killed.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", Self.runner.path, "run", Self.session, "start", kind.rawValue, runtime]
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardError = process.standardOutput
        try start(process)
        // 150 s: under CI's load gnome-shell 43 once took over 120 s to come up
        // (DesktopCompositorTests); alone, each of these takes a few seconds here. A session
        // that ended is not waited for.
        let evidence = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let ready = { [process] () -> String? in
            let text = evidence()
            if !process.isRunning { return "" }
            return text.split(separator: "\n").first { $0.hasPrefix("ready ") }.map { String($0.dropFirst(6)) }
        }
        output = try ChildProcesses.waitFor("\(kind.rawValue) to come up", seconds: 150, every: 0.2, evidence: evidence, ready)
        guard !output.isEmpty else { throw OutputState.Failure(description: "\(kind.rawValue) did not come up: \(evidence())") }
        if kind.isWlroots {
            monitor = try String(contentsOfFile: hostRuntime + "/monitor", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    deinit {
        for session in sessions {
            _ = try? OrientdProcess.run(["-KILL", "-s", session], executable: URL(fileURLWithPath: "/usr/bin/pkill"))
        }
        try? input.fileHandleForWriting.close()
        children.killAll()
        if let testbed = try? String(contentsOfFile: hostRuntime + "/umockdev", encoding: .utf8) {
            try? FileManager.default.removeItem(atPath: root + testbed.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try? FileManager.default.removeItem(atPath: hostRuntime)
        try? FileManager.default.removeItem(atPath: hostRuntime + ".log")
        try? FileManager.default.removeItem(atPath: hostRuntime + ".system")
    }

    /// Writes `text` to NAME in the session's runtime directory; its path in the root.
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: "\(hostRuntime)/\(name)", atomically: true, encoding: .utf8)
        return "\(runtime)/\(name)"
    }

    /// Sets GNOME's rotation lock (GNOME's and Phosh's quick setting, locked), as README tells users to.
    func lockGnomeRotation(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lock = try client(["gsettings", "set", "org.gnome.settings-daemon.peripherals.touchscreen", "orientation-lock", "true"])
        #expect(lock.status == 0, "\(lock.stderr)", sourceLocation: sourceLocation)
    }

    /// GNOME's rotation lock (`orientation-lock`, the key behind GNOME's and Phosh's
    /// rotation quick setting) as gsettings prints it: "true" or "false".
    func gnomeRotationLock() throws -> String {
        try read(["gsettings", "get", "org.gnome.settings-daemon.peripherals.touchscreen", "orientation-lock"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The quick setting touched twice (each touch turns the key off, as GNOME's and Phosh's
    /// do while it is on): orientd locked, then unlocked, the key on again each time, and the
    /// screen at orientd's `angle` after each, whatever the desktop turned meanwhile.
    func expectQuickSettingTogglesOrientd(environment: [String], angle: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scriptLog = { self.log("script.log") }
        for locked in [true, false] {
            let touched = try client(["gsettings", "set", "org.gnome.settings-daemon.peripherals.touchscreen", "orientation-lock", "false"])
            #expect(touched.status == 0, "\(touched.stderr)", sourceLocation: sourceLocation)
            _ = try ChildProcesses.waitFor("orientd's lock \(locked ? "on" : "off")", seconds: 10, evidence: scriptLog) {
                let status = try self.orientd(["ctl", "orientation"], environment: environment)
                return status.contains(#""locked":\#(locked)"#) ? status : nil
            }
            _ = try ChildProcesses.waitFor("the script to lock the desktop's rotation again", seconds: 10, evidence: scriptLog) {
                try self.gnomeRotationLock() == "true" ? true : nil
            }
            // The script turns the screen back twice, the second a second after the first.
            usleep(1_500_000)
            try expectTurned(
                angle: angle, after: "the quick setting touched, orientd's lock \(locked ? "on" : "off")", sourceLocation: sourceLocation)
        }
    }

    /// Ends the events `turnedByOrientd` feeds the script, and waits for the script to give
    /// the desktop's rotation back (the key off again).
    func endEvents(sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = try client(["pkill", "-f", "orientd monitor"])
        let scriptLog = { self.log("script.log") }
        _ = try ChildProcesses.waitFor("the script to give the desktop its rotation back", seconds: 10, evidence: scriptLog) {
            try self.gnomeRotationLock() == "false" ? true : nil
        }
    }

    /// Calls METHOD (Lock, Unlock) on the session's logind session object (phosh).
    func session(_ method: String) throws {
        let call = try client([
            "gdbus", "call", "--system", "--dest", "org.freedesktop.login1", "--object-path", "/org/freedesktop/login1/session/c1",
            "--method", "org.freedesktop.login1.Session.\(method)",
        ])
        guard call.status == 0 else { throw OutputState.Failure(description: "logind's \(method): \(call.stderr)") }
    }

    /// The real orientd turning the screen: the test build replays a still device reading
    /// `vectors` in turn, each for `seconds`, at its own pace, with a socket in the
    /// runtime directory, and the kind's script follows it in stream mode (`orientd
    /// monitor | HOOK`, its standard error in `script.log`). The `env` prefix that reaches
    /// that orientd, for `orientd(_:environment:)`.
    func turnedByOrientd(_ vectors: [(Double, Double, Double)], seconds: Double) throws -> [String] {
        let recording = try write("device.csv", Scratch.stillRecording(vectors, seconds: seconds))
        let orientd = OrientdProcess.executable
        let socket = runtime + "/orientd.sock"
        let environment = ["env", "PATH=\(orientd.deletingLastPathComponent().path):/usr/bin:/bin", "ORIENTD_SOCKET=\(socket)"]
        try background(environment + [orientd.path, "replay", "--socket", socket, recording])
        _ = try ChildProcesses.waitFor("orientd's socket", seconds: 10) { try self.orientd(["ctl", "status"], environment: environment) }
        try background(environment + ["sh", "-c", "orientd monitor | \(kind.hook.path) 2> \"$XDG_RUNTIME_DIR/script.log\""])
        return environment
    }

    /// Runs the test build of orientd in the root as a client of the session, `prefix`
    /// (`env` and its assignments) before it; its standard output.
    func orientd(_ arguments: [String], environment prefix: [String]) throws -> String {
        try read(prefix + [OrientdProcess.executable.path] + arguments)
    }

    /// What the session's program NAME wrote (`phosh.log`, `proxy.log`: iio-sensor-proxy's).
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(hostRuntime)/\(name)", encoding: .utf8)) ?? ""
    }

    /// Puts the umockdev accelerometer iio-sensor-proxy reads (phosh) at these raw counts
    /// (1024 a g), and waits until iio-sensor-proxy says it is in `orientation` now.
    func tilt(_ x: Int, _ y: Int, _ z: Int, until orientation: String) throws {
        let testbed = try String(contentsOfFile: hostRuntime + "/umockdev", encoding: .utf8)
        let device = root + testbed.trimmingCharacters(in: .whitespacesAndNewlines) + "/sys/devices/platform/bmc150-accel.0/iio:device0"
        let said = log("proxy.log").components(separatedBy: "to \(orientation)\n").count
        for (axis, value) in [("x", x), ("y", y), ("z", z)] {
            try "\(value)\n".write(toFile: "\(device)/in_accel_\(axis)_raw", atomically: false, encoding: .utf8)
        }
        let lastLines = { self.log("proxy.log").split(separator: "\n").suffix(4).joined(separator: "\n") }
        let what = "iio-sensor-proxy to find the sensor \(orientation)"
        _ = try ChildProcesses.waitFor(what, seconds: 10, every: 0.05, evidence: lastLines) {
            self.log("proxy.log").components(separatedBy: "to \(orientation)\n").count > said ? true : nil
        }
    }

    /// Starts `setsid -w COMMAND` and notes the session it makes: setsid forks, and its
    /// child, the session's leader, has the session's id as its pid.
    private func start(_ process: Process) throws {
        try children.start(process)
        let pid = process.processIdentifier
        sessions.append(
            try ChildProcesses.waitFor("the session of setsid \(pid)", seconds: 10, every: 0.01) {
                let children = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
                return children.split(separator: " ").first.map(String.init)
            })
    }

    /// Runs a command in the root as a client of the session; `environment` is added to
    /// the session's.
    func client(_ arguments: [String], environment: [String: String] = [:]) throws -> OrientdProcess.Result {
        try OrientdProcess.run(
            ["run", Self.session, "client", runtime, "env"] + environment.map { "\($0.key)=\($0.value)" } + arguments,
            executable: Self.runner)
    }

    /// Starts a client of the session that runs until the session ends.
    func background(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", Self.runner.path, "run", Self.session, "client", runtime] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try start(process)
    }

    /// A rotation script in stream mode, in the root, as a client of the session.
    func script(_ hook: URL) throws -> ScriptProcess {
        try ScriptProcess(
            Self.runner, arguments: ["run", Self.session, "client", runtime, hook.path], environment: ProcessInfo.processInfo.environment)
    }

    private func read(_ arguments: [String]) throws -> String {
        let run = try client(arguments)
        guard run.status == 0 else { throw OutputState.Failure(description: "\(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.stdout
    }

    /// The output as the compositor reports it, by its own tool.
    func state() throws -> OutputState {
        let states =
            switch kind {
            case .sway, .labwc, .phoc, .phosh: try OutputState.wlrRandr(read(["wlr-randr", "--json"]))
            case .gnomeShell: try OutputState.mutter(read(OutputState.mutterCall))
            case .kwin: try OutputState.kscreen(read(["kscreen-doctor", "-j"]))
            }
        guard let state = states.first(where: { $0.name == output })?.state else {
            throw OutputState.Failure(description: "\(kind.rawValue) has no enabled output \(output); it has \(states.map(\.name))")
        }
        return state
    }

    /// A screenshot of the monitor, which shows the nested compositor's framebuffer.
    func picture() throws -> PanelPicture {
        _ = try read(["WAYLAND_DISPLAY=\(monitor)", "grim", "-t", "ppm", runtime + "/shot.ppm"])
        return try PanelPicture(ppm: Data(contentsOf: URL(fileURLWithPath: hostRuntime + "/shot.ppm")))
    }

    /// `read` again, 50 ms apart, until `done` holds of it or 5 s have passed; its last value.
    private func reread<T>(_ read: () throws -> T, until done: (T) -> Bool) rethrows -> T {
        let deadline = Date().addingTimeInterval(5)
        var value = try read()
        while !done(value) && Date() < deadline {
            usleep(50_000)
            value = try read()
        }
        return value
    }

    /// Expects the output turned to the W3C `angle` (the protocol's transform is its
    /// opposite: counter-clockwise), waiting up to 5 s for a script in stream mode: the
    /// compositor's own state, with a portrait size for a quarter turn; then, nested, where
    /// the marker's corners land on the panel, else what a Wayland client is told.
    func expectTurned(angle: Int, after what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let quarterTurns = ((360 - angle) % 360) / 90
        let portrait = quarterTurns % 2 == 1
        func right(_ state: OutputState?) -> Bool {
            state.map { $0.quarterTurns == quarterTurns && ($0.width < $0.height) == portrait } ?? false
        }
        let state = reread({ try? self.state() }, until: right)
        let final = try state ?? self.state()
        let expected = "expected \(quarterTurns) quarter turns, \(portrait ? "portrait" : "landscape")"
        #expect(right(final), "after \(what): \(kind.rawValue) reports \(output) at \(final); \(expected)", sourceLocation: sourceLocation)
        if kind.isPictured {
            let corner = PanelCorner(screenAngle: angle)
            var seen: (red: PanelCorner?, blue: PanelCorner?) = (nil, nil)
            let drawn = Date().addingTimeInterval(3)
            repeat {
                let picture = try picture()
                seen = picture.marker(in: (0, 0, picture.width, picture.height))
                if seen.red == corner && seen.blue == corner.opposite { return }
                usleep(100_000)
            } while Date() < drawn
            Issue.record(
                Comment(
                    rawValue: "after \(what): the picture's top-left corner is at the panel's \(seen.red.map(\.rawValue) ?? "nowhere")"
                        + " (bottom-right at \(seen.blue.map(\.rawValue) ?? "nowhere")); \(angle)° puts it \(corner)"),
                sourceLocation: sourceLocation)
        } else {
            // Read until a client sees it too, as the compositor's reading above: a change
            // still under way (a lock's portrait, then a turn that was already on its way)
            // can pass the reading above in between and reach clients after.
            let client = try reread({ try OutputState.waylandInfo(read(["wayland-info"]), output: output) }, until: { right($0) })
            #expect(
                right(client), "after \(what): a Wayland client sees \(output) at \(client); \(expected)",
                sourceLocation: sourceLocation)
        }
    }
}
