import Foundation
import OrientdTestSupport
import Testing

/// The compositors of Debian 13 that need a DRM device (wayfire 0.9, Hyprland 0.55 from
/// trixie-backports), and touch, which needs a real input device: this machine has
/// neither, so Debian 13 boots under qemu with a virtio-gpu display (rendered with
/// llvmpipe) and a uinput touchscreen (`Tests/Fixtures/screen/desktop-guest`). sway 1.10
/// runs there too, for touch. One boot runs every case (`desktop-guest-cases`): each
/// script turns its compositor in hook mode to the four screen orientations; after each
/// turn the compositor's own reading, the display as qemu shows it (where the marker
/// picture lands on the panel; not judged on wayfire, see `Kind.pictured`) and where two
/// taps land in a fullscreen window.
@Suite(.serialized, .enabled(if: DesktopGuest.counterpart.missing.isEmpty, "\(DesktopGuest.skipReason)"))
struct DesktopGuestTests {
    @Test(
        "on a DRM device: each script turns its compositor to the four screen orientations, read back (and pictured on the panel but for wayfire's)",
        arguments: DesktopGuest.Kind.allCases)
    func turns(kind: DesktopGuest.Kind) throws {
        let run = try DesktopGuest.run.get()
        #expect(run.failures(kind).isEmpty, "\(run.failures(kind)); the guest's log: \(run.log(kind))")
        let turns = run.lines("turn", kind)
        #expect(turns.map(\.screen) == DesktopGuest.screens.map(\.screen), "\(turns)")
        for turn in turns {
            let screen = try #require(DesktopGuest.screens.first { $0.screen == turn.screen })
            #expect(turn.fields == ["status=0", "reading=\(screen.transform)"], "\(kind) to \(turn.screen): \(turn.fields)")
        }
        guard kind.pictured else { return }
        let pictures = run.lines("picture", kind)
        #expect(pictures.count == 4, "\(pictures)")
        for picture in pictures {
            let screen = try #require(DesktopGuest.screens.first { $0.screen == picture.screen })
            let image = try PanelPicture(ppm: Data(contentsOf: run.share.appendingPathComponent("\(picture.fields[0]).done.ppm")))
            DesktopGuest.expectMarker(image, angle: screen.angle, "\(kind) at \(screen.screen)")
        }
    }

    /// A tap at a point of the panel must land at the point of the picture shown there:
    /// the touchscreen turns with the screen. sway maps it through the script
    /// (`map_to_output`), Hyprland through `input:touchdevice:transform`, which the script
    /// sets with the monitor's; wayfire through its own configuration (`[input-device:…]
    /// output =`), which is the user's to write.
    @Test("touch follows the rotation: a tap lands where the picture shows the point tapped", arguments: DesktopGuest.Kind.touchedKinds)
    func touch(kind: DesktopGuest.Kind) throws {
        try Self.expectTaps("touch", kind)
    }

    /// A pen is a tablet's tool, which a compositor maps apart from touch: sway through
    /// the script (`input type:tablet_tool map_to_output`), Hyprland through
    /// `input:tablet:transform`, which the script sets with the monitor's, wayfire through
    /// its own configuration (`[input-device:…] output =`). A uinput pen on the panel (a
    /// display tablet), given to wev, which has no tablet protocol, as the pointer.
    @Test(
        "the pen follows the rotation: a touch of the pen lands where the picture shows the point touched",
        arguments: [DesktopGuest.Kind.sway, .wayfire, .hyprland])
    func pen(kind: DesktopGuest.Kind) throws {
        try Self.expectTaps("pen", kind)
    }

    /// Two taps (of a finger or the pen: `tool`) after each of the four turns, each where
    /// the turned screen shows the point tapped.
    static func expectTaps(_ tool: String, _ kind: DesktopGuest.Kind, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try DesktopGuest.run.get()
        try DesktopGuest.expectTaps(
            tool, kind.rawValue, in: run, count: 8, panel: try run.panelSize(),
            angle: { tap in DesktopGuest.screens.first { $0.screen == tap.screen }?.angle }, sourceLocation: sourceLocation)
    }
}

/// The desktop guest's one run, and how to read it.
enum DesktopGuest {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sway
        case wayfire
        case hyprland
        case hyprlandLua = "hyprland-lua"

        /// Pictured and tapped after each turn; the Lua configuration is turned only.
        var touched: Bool { self != .hyprlandLua }
        static let touchedKinds = allCases.filter(\.touched)
        /// Whose pictures are judged. wayfire 0.9 does not lay out again what it shows
        /// after a turn through wlr-output-management: its background (swaybg) and a
        /// fullscreen window (imv) keep their old size, cut off beside its grey (measured
        /// in this guest), so the panel cannot show where the picture's corners go.
        var pictured: Bool { touched && self != .wayfire }

        var testDescription: String {
            switch self {
            case .sway: "sway 1.10 (orientd-rotate-sway)"
            case .wayfire: "wayfire 0.9 (orientd-rotate-wlroots)"
            case .hyprland: "Hyprland 0.55, a wildcard monitor rule (orientd-rotate-hyprland)"
            case .hyprlandLua: "Hyprland 0.55, a Lua configuration (orientd-rotate-hyprland)"
            }
        }
    }

    /// The screens in the order the guest turns to them, each with its W3C angle and the
    /// protocol's transform (0-3) the compositor must then report.
    static let screens: [(screen: String, angle: Int, transform: Int)] = [
        ("landscape-primary", 90, 3), ("portrait-secondary", 180, 2), ("landscape-secondary", 270, 1), ("portrait-primary", 0, 0),
    ]

    static let counterpart = MissingCounterpart(
        programs: ["qemu-system-x86_64", "mmdebstrap", "mkfs.ext4", "socat", "unshare", "chroot"], needsRoot: true)
    static let skipReason = counterpart.skipReason(
        suite: "DesktopGuestTests (wayfire, Hyprland and touch on Debian 13 booted under qemu with a virtio-gpu display)",
        why: "scripts/test --all installs what makes and boots the guest, and asks for this tier.")

    private static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/screen")

    /// Expects the marker's red (top-left) and blue (bottom-right) squares in `image` at
    /// the panel's corners where a screen at the W3C `angle` puts them.
    static func expectMarker(_ image: PanelPicture, angle: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = image.marker(in: (0, 0, image.width, image.height))
        let corner = PanelCorner(screenAngle: angle)
        #expect(
            seen.red == corner && seen.blue == corner.opposite,
            "\(what): the picture's top-left corner at the panel's \(seen.red.map(\.rawValue) ?? "nowhere"), its bottom-right at \(seen.blue.map(\.rawValue) ?? "nowhere"); \(angle)° puts it \(corner)",
            sourceLocation: sourceLocation)
    }

    /// Expects `count` lines of `tool` ("touch", "pen") for the case `kind` of `run`, each
    /// a tap where a screen at the W3C angle `angle` gives for its line shows the point.
    static func expectTaps(
        _ tool: String, _ kind: String, in run: Run, count: Int, panel: (width: Double, height: Double), angle: (Line) -> Int?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let taps = run.lines(tool, kind)
        #expect(taps.count == count, "\(count) \(tool) taps: \(taps); \(run.failures(kind))", sourceLocation: sourceLocation)
        for tap in taps {
            let turned = try #require(angle(tap), "no angle for \(tap.screen)", sourceLocation: sourceLocation)
            expectTap(tap, angle: turned, panel: panel, "\(kind), \(tool)", sourceLocation: sourceLocation)
        }
    }

    /// Expects a "touch" line's tap (U V of the panel, then X Y where it landed) within 3
    /// pixels of the point a screen at the W3C `angle` shows there.
    static func expectTap(
        _ tap: Line, angle: Int, panel: (width: Double, height: Double), _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let numbers = tap.fields.compactMap(Double.init)
        guard numbers.count == 4 else {
            Issue.record("\(what): \(tap.fields)", sourceLocation: sourceLocation)
            return
        }
        let expected = logical(u: numbers[0], v: numbers[1], angle: angle, panel: panel)
        #expect(
            abs(numbers[2] - expected.x) <= 3 && abs(numbers[3] - expected.y) <= 3,
            "\(what) at \(tap.screen): a tap at (\(numbers[0]), \(numbers[1])) of the panel landed at (\(numbers[2]), \(numbers[3])); expected (\(expected.x), \(expected.y))",
            sourceLocation: sourceLocation)
    }

    /// Where the logical point a tap at (u, v) of the panel (0...1 of its width and height)
    /// shows, with the screen at the W3C `angle`: the picture turns clockwise on the panel
    /// as the device turns counter-clockwise (`PanelCorner`), so its origin is at the
    /// panel's top-left, top-right, bottom-right, bottom-left corner in turn.
    static func logical(u: Double, v: Double, angle: Int, panel: (width: Double, height: Double)) -> (x: Double, y: Double) {
        let (x, y) = (u * panel.width, v * panel.height)
        switch angle {
        case 90: return (y, panel.width - x)
        case 180: return (panel.width - x, panel.height - y)
        case 270: return (panel.height - y, x)
        default: return (x, y)
        }
    }

    struct Line: CustomStringConvertible {
        var screen: String
        var fields: [String]
        var description: String { "\(screen) \(fields.joined(separator: " "))" }
    }

    struct Run {
        let share: URL
        let results: [String]

        /// The lines of `what` (turn, touch, picture) for `kind`: the screen, then the rest.
        func lines(_ what: String, _ kind: Kind) -> [Line] { lines(what, kind.rawValue) }

        /// The lines of `what` for the case named `kind`: the word after it, then the rest.
        func lines(_ what: String, _ kind: String) -> [Line] {
            results.map { $0.split(separator: " ").map(String.init) }
                .filter { $0.count >= 3 && $0[0] == what && $0[1] == kind }
                .map { Line(screen: $0[2], fields: Array($0.dropFirst(3))) }
        }

        func failures(_ kind: Kind) -> [String] { failures(kind.rawValue) }

        /// What could not be done for the case named `kind`, and for every case ("all").
        func failures(_ kind: String) -> [String] {
            results.filter { $0.hasPrefix("failed \(kind) ") || $0.hasPrefix("failed all ") }
        }

        /// The picture taken after `step` of the case named `kind`.
        func picture(_ kind: String, _ step: String) throws -> PanelPicture {
            let name = try #require(lines("picture", kind).first { $0.screen == step }?.fields.first, "\(kind)'s picture after \(step)")
            return try PanelPicture(ppm: Data(contentsOf: share.appendingPathComponent("\(name).done.ppm")))
        }

        /// The text of a file the guest left in the share; empty when there is none.
        func file(_ name: String) -> String {
            (try? String(contentsOf: share.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }

        /// The guest's log for the compositor (its own output), for a failure's message.
        func log(_ kind: Kind) -> String {
            let name = kind == .hyprlandLua ? "hyprland-lua" : kind.rawValue
            let text = (try? String(contentsOf: share.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
            return String(text.suffix(1500))
        }

        /// The panel's size in pixels, as qemu's pictures of it have it.
        func panelSize() throws -> (width: Double, height: Double) {
            let first = try #require(results.first { $0.hasPrefix("picture ") }?.split(separator: " ").last)
            let image = try PanelPicture(ppm: Data(contentsOf: share.appendingPathComponent("\(first).done.ppm")))
            return (Double(image.width), Double(image.height))
        }
    }

    /// The test build of orientd in `directory`, with the Swift runtime it links to beside
    /// it (its run path has $ORIGIN): the guest has no Swift toolchain.
    static func copyOrientd(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: OrientdProcess.executable, to: directory.appendingPathComponent("orientd"))
        let linked = try OrientdProcess.runShell(["ldd", OrientdProcess.executable.path])
        // "libswiftCore.so => /opt/swift/usr/lib/swift/linux/libswiftCore.so (0x...)"
        for line in linked.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 3, words[1] == "=>", words[2].contains("/swift/") else { continue }
            let library = URL(fileURLWithPath: String(words[2]))
            try FileManager.default.copyItem(at: library, to: directory.appendingPathComponent(library.lastPathComponent))
        }
    }

    /// The one boot of the compositors' cases.
    static let run = boot(cases: "desktop-guest-cases", with: ["screen/marker.png", "screen/touchscreen.py"])

    /// A boot: the share made (the scripts as shipped, `cases` as its run script, the
    /// fixtures named), the guest run (its image made first if it is not cached: some
    /// minutes), its results read.
    static func boot(cases: String, with fixtureNames: [String], orientd: Bool = false) -> Result<Run, OutputState.Failure> {
        let share = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-desktop-guest-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("hooks"), to: share.appendingPathComponent("hooks"))
            for name in fixtureNames {
                try FileManager.default.copyItem(
                    at: Repository.root.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name),
                    to: share.appendingPathComponent(URL(fileURLWithPath: name).lastPathComponent))
            }
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(cases), to: share.appendingPathComponent("run"))
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("desktop-guest-common.sh"), to: share.appendingPathComponent("common.sh"))
            if orientd { try copyOrientd(to: share.appendingPathComponent("orientd")) }
        } catch {
            return .failure(OutputState.Failure(description: "making the guest's share: \(error)"))
        }
        let began = Date()
        guard let booted = try? OrientdProcess.run(["run", share.path], executable: fixtures.appendingPathComponent("desktop-guest")),
            booted.status == 0
        else {
            let console = (try? String(contentsOf: share.appendingPathComponent("console.log"), encoding: .utf8)) ?? ""
            return .failure(
                OutputState.Failure(description: "the desktop guest did not run \(cases); the console's end: \(console.suffix(2000))"))
        }
        let results = ((try? String(contentsOf: share.appendingPathComponent("results"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
        print(
            "desktop guest (\(cases)): ran in \(Int(Date().timeIntervalSince(began))) s; \(booted.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
        print("desktop guest (\(cases)): its results:\n\(results.joined(separator: "\n"))")
        return .success(Run(share: share, results: results))
    }
}
