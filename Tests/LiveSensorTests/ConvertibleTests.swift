import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// A convertible under umockdev: the real libudev and libiio read a display and a base
/// accelerometer, and the real libevdev reads a tablet-mode switch whose ioctls umockdev
/// answers from a tree and whose events the test writes to the node. The daemon is the
/// real binary; what it says is read from its standard output.
extension LiveSensorTests {
    @Test(
        "a display and a base accelerometer: laptop, on its side, stand, tent, folded flat and back; the screen follows only in tablet mode"
    )
    func hingeModes() throws {
        let bed = try Convertible.testbed(hinge: 110)
        let daemon = try Convertible.daemon()
        defer { Convertible.stop(daemon) }
        var seen = 0

        let laptop = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(laptop.contains(#""mode":"laptop","source":"hinge""#), "\(laptop)")
        #expect(try Convertible.number("hinge", in: laptop).map { abs($0 - 110) < 3 } == true, "\(laptop)")

        // Laptop on its side: the hinge stands upright, the angle is undefined, the mode
        // holds and the screen stays at its natural orientation while the device turns.
        Convertible.set(bed, display: (-1024, 0, 60), base: (-1024, 0, 60))
        let side = try #require(Convertible.next(daemon, &seen) { $0.contains(#""device":"landscape-left""#) }, "\(daemon.standardError)")
        #expect(side.contains(#""angle":0,"#), "laptop mode holds the natural orientation: \(side)")

        // Stand: keyboard face down on the desk, display upright, 270°.
        Convertible.pose(bed, hinge: 270, pitch: 180)
        let stand = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(stand.contains(#""mode":"tablet","source":"hinge""#), "\(stand)")

        // Tent: 300°, the hinge on top; still tablet, and status says so.
        Convertible.pose(bed, hinge: 300, pitch: 240)
        let status = try #require(
            Convertible.status(daemon, &seen) { try Convertible.number("hinge", in: $0).map { abs($0 - 300) < 5 } == true })
        #expect(status.contains(#""mode":"tablet""#) && status.contains(#""mode-source":"hinge""#), "\(status)")
        #expect(status.contains(#""base":"iio:device1""#), "\(status)")
        #expect(try Convertible.number("hinge", in: status).map { abs($0 - 300) < 5 } == true, "\(status)")

        // Folded flat, lying on the desk screen up: 355°, still tablet.
        Convertible.pose(bed, hinge: 355, pitch: 180)
        // Screen up: the pose goes to face-up (what the turn below leaves), then the hinge.
        let faceUp = Convertible.next(daemon, &seen) { $0.contains(#""device":"face-up""#) }
        #expect(faceUp != nil, "\(daemon.output.suffix(4)) \(daemon.standardError)")
        let folded = try #require(
            Convertible.status(daemon, &seen) { try Convertible.number("hinge", in: $0).map { abs($0 - 355) < 5 } == true })
        #expect(folded.contains(#""mode":"tablet""#), "\(folded)")
        #expect(try Convertible.number("hinge", in: folded).map { abs($0 - 355) < 5 } == true, "\(folded)")

        // Tablet on its side: now the screen follows.
        Convertible.set(bed, display: (-1024, 0, 60), base: (-1024, 0, 60))
        let turned = try #require(Convertible.next(daemon, &seen) { $0.contains(#""device":"landscape-left""#) }, "\(daemon.standardError)")
        #expect(!turned.contains(#""angle":0,"#), "tablet mode: the screen follows the device: \(turned)")

        // Opened back to a laptop: the mode returns and the screen with it.
        Convertible.pose(bed, hinge: 110, pitch: 0)
        let back = try #require(
            Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.output.suffix(4)) \(daemon.standardError)")
        #expect(back.contains(#""mode":"laptop","source":"hinge""#), "\(back)")
        let natural = try #require(
            Convertible.next(daemon, &seen) { $0.contains(#""event":"orientation""#) && $0.contains(#""angle":0,"#) })
        // The mode can come before the classifier sees the device upright: the screen
        // returns to natural because of it (cause mode), or with the device.
        #expect(natural.contains(#""cause":"mode""#) || natural.contains(#""device":"portrait""#), "\(natural)")
    }

    @Test("a tablet-mode switch read through libevdev, toggled while the display turns: the screen follows only in tablet mode")
    func switchToggled() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(number: 0, raw: (0, -1024, 60)))
        try bed.loadIoctl(device: FakeSwitch.node, FakeSwitch.ioctlTree(tablet: false))
        try bed.add(FakeSwitch.description)
        let daemon = try Convertible.daemon()
        defer { Convertible.stop(daemon) }
        var seen = 0

        let laptop = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(laptop.contains(#""mode":"laptop","source":"switch","hinge":null"#), "\(laptop)")
        #expect(
            Convertible.waitFor { daemon.standardError.contains("tablet-mode switch /dev/input/event7 (Intel Virtual Switches): laptop") },
            "\(daemon.standardError)")

        bed.setAttribute(FakeAccelerometer.syspath(number: 0), "in_accel_x_raw", "-1024")
        bed.setAttribute(FakeAccelerometer.syspath(number: 0), "in_accel_y_raw", "0")
        let side = try #require(Convertible.next(daemon, &seen) { $0.contains(#""device":"landscape-left""#) }, "\(daemon.standardError)")
        #expect(side.contains(#""angle":0,"#), "laptop mode holds the natural orientation: \(side)")

        bed.send(device: FakeSwitch.node, FakeSwitch.event(tablet: true))
        let tablet = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(tablet.contains(#""mode":"tablet","source":"switch""#), "\(tablet)")
        let follows = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"orientation""#) })
        #expect(follows.contains(#""cause":"mode""#) && !follows.contains(#""angle":0,"#), "\(follows)")

        daemon.write("status\n")
        let status = try #require(Convertible.next(daemon, &seen) { $0.contains(#""reply":"status""#) })
        #expect(status.contains(#""switches":["event7"]"#) && status.contains(#""base":null"#), "\(status)")

        bed.send(device: FakeSwitch.node, FakeSwitch.event(tablet: false))
        let back = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) })
        #expect(back.contains(#""mode":"laptop","source":"switch""#), "\(back)")
        let natural = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"orientation""#) })
        #expect(natural.contains(#""cause":"mode""#) && natural.contains(#""angle":0,"#), "\(natural)")
    }

    @Test("a switch appearing overrules the hinge and the base sensor is no longer read; gone, the hinge answers again")
    func switchAppearsAndGoes() throws {
        let bed = try Convertible.testbed(hinge: 110)
        let daemon = try Convertible.daemon()
        defer { Convertible.stop(daemon) }
        var seen = 0
        let hinge = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(hinge.contains(#""mode":"laptop","source":"hinge""#), "\(hinge)")

        try bed.loadIoctl(device: FakeSwitch.node, FakeSwitch.ioctlTree(tablet: true))
        try bed.add(FakeSwitch.description)
        bed.uevent(FakeSwitch.syspath, "add")
        let switched = try #require(Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) }, "\(daemon.standardError)")
        #expect(switched.contains(#""mode":"tablet","source":"switch""#), "\(switched)")
        #expect(
            Convertible.waitFor { daemon.standardError.contains("the base accelerometer is no longer read") },
            "a switch answers: the base sensor is let go")

        bed.uevent(FakeSwitch.syspath, "remove")
        bed.remove(FakeSwitch.syspath, node: "input/event7")
        let again = try #require(
            Convertible.next(daemon, &seen) { $0.contains(#""event":"mode""#) && $0.contains(#""source":"hinge""#) },
            "\(daemon.output.suffix(5)) \(daemon.standardError)")
        #expect(again.contains(#""mode":"laptop""#), "\(again)")
    }

    @Test("a machine with neither a switch nor a base sensor: no mode, and the screen follows the device as on a plain tablet")
    func neither() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(number: 0, raw: (0, -1024, 60)))
        let daemon = try Convertible.daemon()
        defer { Convertible.stop(daemon) }
        var seen = 0
        _ = try #require(Convertible.next(daemon, &seen) { $0.contains(#""device":"portrait""#) }, "\(daemon.standardError)")
        bed.setAttribute(FakeAccelerometer.syspath(number: 0), "in_accel_x_raw", "-1024")
        bed.setAttribute(FakeAccelerometer.syspath(number: 0), "in_accel_y_raw", "0")
        let turned = try #require(Convertible.next(daemon, &seen) { $0.contains(#""device":"landscape-left""#) })
        #expect(!turned.contains(#""angle":0,"#), "\(turned)")
        daemon.write("status\n")
        let status = try #require(Convertible.next(daemon, &seen) { $0.contains(#""reply":"status""#) })
        #expect(status.contains(#""mode":null"#) && status.contains(#""rotate-in":"tablet""#), "\(status)")
        #expect(status.contains(#""switches":[]"#) && status.contains(#""base":null"#), "\(status)")
        #expect(!daemon.output.contains { $0.contains(#""event":"mode""#) })
    }

    @Test("orientd list shows both sensors' readings, the hinge angle and the switch")
    func listConvertible() throws {
        let bed = try Convertible.testbed(hinge: 100)
        try bed.loadIoctl(device: FakeSwitch.node, FakeSwitch.ioctlTree(tablet: true))
        try bed.add(FakeSwitch.description)
        let text = try OrientdProcess.run(["list"], timeout: 10)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Tablet-mode switch event7 (Intel Virtual Switches) at /dev/input/event7: tablet"), "\(text.stdout)")
        #expect(text.stdout.contains("Hinge angle: 100° (laptop"), "\(text.stdout)")
        #expect(text.stdout.contains("reading           0, 0, 9.81 m/s²"), "the base lies flat: \(text.stdout)")
        let json = try OrientdProcess.run(["list", "--json"], timeout: 10)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        #expect(array.map { $0["kind"] as? String } == ["accelerometer", "accelerometer", "switch"])
        #expect((array[1]["hinge"] as? Double).map { abs($0 - 100) < 0.5 } == true)
        #expect(array[2]["mode"] as? String == "tablet")
    }
}

/// Poses of a convertible for the fixtures' scale (1024 counts ≈ 1 g), in the frame
/// docs/layers.md's "2-in-1" section gives: the frames coincide at 180°, the hinge along x.
enum Convertible {
    /// A display and a base accelerometer (labelled so), the base lying flat and the lid
    /// open to `hinge`.
    static func testbed(hinge: Double) throws -> Testbed {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(number: 0, extraAttributes: ["label": "accel-display"]))
        try bed.add(FakeAccelerometer.polled(number: 1, extraAttributes: ["label": "accel-base"]))
        pose(bed, hinge: hinge, pitch: 0)
        return bed
    }

    /// `orientd run` on the testbed, its commands on standard input.
    static func daemon() throws -> DaemonProcess {
        try DaemonProcess(["run", "--no-config", "--no-state", "--no-socket"])
    }

    /// The base turned by `pitch` about the hinge, the display opened to `hinge` from it.
    static func pose(_ bed: Testbed, hinge: Double, pitch: Double) {
        func counts(turned: Double) -> (Int, Int, Int) {
            let a = turned * .pi / 180
            return (0, Int((-1024 * sin(a)).rounded()), Int((1024 * cos(a)).rounded()))
        }
        set(bed, display: counts(turned: pitch + 180 - hinge), base: counts(turned: pitch))
    }

    static func set(_ bed: Testbed, display: (Int, Int, Int), base: (Int, Int, Int)) {
        for (number, raw) in [(1, base), (0, display)] {
            for (axis, value) in zip(["x", "y", "z"], [raw.0, raw.1, raw.2]) {
                bed.setAttribute(FakeAccelerometer.syspath(number: number), "in_accel_\(axis)_raw", "\(value)")
            }
        }
    }

    /// The first line after the `seen` already looked at that matches, within `timeout`;
    /// `seen` moves past it.
    static func next(_ daemon: DaemonProcess, _ seen: inout Int, timeout: Double = 8, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while Date() < deadline {
            let lines = daemon.output
            if let index = lines.indices.dropFirst(seen).first(where: { match(lines[$0]) }) {
                seen = index + 1
                return lines[index]
            }
            usleep(10_000)
        }
        return nil
    }

    /// Asks for `status` until its reply satisfies `done` (the readings of a pose just set
    /// may take a moment to reach the hinge), or TestTime's 8 s pass: the last reply.
    static func status(_ daemon: DaemonProcess, _ seen: inout Int, _ done: (String) throws -> Bool) rethrows -> String? {
        let deadline = Date().addingTimeInterval(TestTime.wait(8))
        var last: String?
        repeat {
            daemon.write("status\n")
            last = next(daemon, &seen) { $0.contains(#""reply":"status""#) }
            if let last, try done(last) { return last }
            usleep(100_000)
        } while Date() < deadline
        return last
    }

    static func number(_ key: String, in line: String) throws -> Double? {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?[key] as? Double
    }

    static func waitFor(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return false
    }

    static func stop(_ daemon: DaemonProcess) {
        daemon.signal(SIGTERM)
        _ = daemon.waitForExit()
    }
}

/// A tablet-mode switch input device as intel-vbtn makes it: EV_SW with SW_TABLET_MODE
/// only. Its ioctl tree answers exactly the requests libevdev makes when it first looks
/// at a device (the sizes are libevdev's arrays'); its events are written to the node.
enum FakeSwitch {
    static let node = "/dev/input/event7"
    static let syspath = "/sys/devices/platform/INT33D6:00/input/input7/event7"
    static let description = """
        P: /devices/platform/INT33D6:00/input/input7/event7
        N: input/event7
        E: DEVNAME=/dev/input/event7
        E: SUBSYSTEM=input
        E: ID_INPUT=1
        E: ID_INPUT_SWITCH=1

        """

    static func ioctlTree(tablet: Bool) -> String {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
        func bits(_ first: UInt8, size: Int) -> String { hex([first] + Array(repeating: 0, count: size - 1)) }
        let name = Array("Intel Virtual Switches".utf8)
        var lines = [
            "@DEV \(node)",
            "EVIOCGVERSION 0 01000100",
            "EVIOCGID 0 1900000000000000",
            "EVIOCGNAME(0) \(name.count + 1) \(hex(name + Array(repeating: 0, count: 255 - name.count)))",
            // EV_SYN and EV_SW.
            "EVIOCGBIT(0) 8 \(bits(0x21, size: 8))",
            "EVIOCGPROP(0) 8 \(bits(0, size: 8))",
        ]
        // EV_REL, EV_ABS, EV_LED, EV_KEY, EV_MSC, EV_FF, EV_SND: none.
        for (type, size) in [(2, 8), (3, 8), (17, 8), (1, 96), (4, 8), (21, 16), (18, 8)] {
            lines.append("EVIOCGBIT(\(type)) \(size) \(bits(0, size: size))")
        }
        // EV_SW: SW_TABLET_MODE (code 1) only; and its state.
        lines.append("EVIOCGBIT(5) 8 \(bits(0x02, size: 8))")
        lines.append("EVIOCGKEY(0) 96 \(bits(0, size: 96))")
        lines.append("EVIOCGLED(0) 8 \(bits(0, size: 8))")
        lines.append("EVIOCGSW(0) 8 \(bits(tablet ? 0x02 : 0, size: 8))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `struct input_event`s on a 64-bit machine (a 16-byte timeval, type, code, value):
    /// SW_TABLET_MODE, then SYN_REPORT.
    static func event(tablet: Bool) -> [UInt8] {
        func inputEvent(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
            Array(repeating: 0, count: 16) + withUnsafeBytes(of: type.littleEndian, Array.init)
                + withUnsafeBytes(of: code.littleEndian, Array.init) + withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        return inputEvent(type: 5, code: 1, value: tablet ? 1 : 0) + inputEvent(type: 0, code: 0, value: 0)
    }
}
