import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// The I2C accelerometers tablets and boards ship, on the real kernel: i2c-stub makes an
/// SMBus whose chips are register files, the kernel's unmodified drivers (kxcjk-1013,
/// bmc150-accel, mxc4005, st_accel, inv_mpu6050) bind to them by name, and the feeder
/// (`virtual-sensor --driver`, `StubChip`) holds each reading in the chip's registers as
/// the part would, at the range and rate the driver configured.
///
/// Debian 13's arm64 kernel is built without i2c-stub (CONFIG_I2C_STUB unset): its guest
/// image carries the kernel's own i2c-stub.c built for it (scripts/vm, add_i2c_stub), as
/// arm64 boards and tablets are where these parts are.
extension RealKernelTests {
    static let chips = ["kxcjk1013", "bma250e", "bmc150_accel", "mxc4005", "lis3dh", "mpu6050"]
    /// The chips a recording is played through (20–40 s each under TCG): every one on
    /// Debian 12 amd64; on Debian 13 arm64 each driver once (bmc150_accel is bma250e's
    /// driver); on Debian 13 amd64, whose 6.12 drivers the arm64 guest runs, the two
    /// parts x86 tablets carry most (KIOX000A, MXC6655). `orientd list` reads all six.
    static let replayedChips =
        switch Guest.key {
        case "trixie-arm64": chips.filter { $0 != "bmc150_accel" }
        case "trixie-amd64": ["kxcjk1013", "mxc4005"]
        default: chips
        }

    @Test(
        "each I2C chip's real driver: the live daemon prints what replay prints, within 0.4 s, polled as its buffer has no trigger",
        .beyondThePackage, arguments: replayedChips)
    func i2cSameEventsAsReplay(chip: String) throws {
        let path = Self.recordings.appendingPathComponent("quick-flick-rotations.csv").path
        let play = try Guest.play(path, ["--driver", chip])
        // Polled, each reading comes as the guest's one emulated CPU gets to it: within
        // 0.21 s of replay's as a rule, 0.37 s once (bmc150) with both host cores busy.
        try Self.expectSameAsReplay(path, play: play, within: 0.4)
        let sensor = (play.events ?? []).filter { $0["event"] as? String == "sensor" }
        let first = try Self.firstRead(in: play)
        #expect(first["read"] as? String == "polled", "no trigger on i2c-stub, so polled: \(first)")
        if first["state"] as? String == "attached" {
            #expect(first["name"] as? String == chip, "the IIO device's name is the driver's: \(first)")
            // The rate orientd set, as the chip's registers hold it (the feeder's
            // `configured` lines): at least that (raised when reads wait on conversions).
            if let rate = first["rate"] as? Double {
                let configured = play.stderr.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
                }.filter { $0["event"] as? String == "configured" }.compactMap { $0["rate"] as? Double }
                #expect(configured.contains { $0 >= rate - 0.01 }, "\(chip) ran at \(configured), not \(rate) Hz: \(play.stderr)")
            }
        }
        #expect(sensor.last?["state"] as? String == "lost", "play unplugs the chip at the end: \(play.stdout)")
    }

    @Test(
        "orientd list and doctor on each I2C chip: its name, scale (shared or per axis), rates, why polled; readings plausible",
        .beyondThePackage)
    func i2cListAndDoctor() throws {
        try Guest.copyInFeeder()
        // A device held still (|a| 9.5–9.9 m/s² throughout): list reads one sample at
        // whatever moment it runs, and a quick flick's swing (6–14 m/s²) is no reading
        // "near 1 g" (measured on Debian 13: 7.4 m/s² mid-flick).
        let recording = try Guest.copyIn(Self.recordings.appendingPathComponent("steep-tilt-reading.csv").path)
        let result = try Guest.run(script: "i2c-list-and-doctor", [Self.chips.joined(separator: " "), recording], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == Self.chips.count, "\(result.stdout)\n\(result.stderr)")
        for info in lines {
            let chip = info["chip"] as? String ?? "?"
            let facts = ["scale", "scaleSource", "samplingFrequency", "samplingFrequencyAvailable", "mountMatrixSource", "buffer"].map {
                "\($0) \(info[$0].map { "\($0)" } ?? "nil")"
            }
            print("real kernel, \(Guest.name), I2C \(chip): " + facts.joined(separator: "; "))
            #expect(info["name"] as? String == chip, "\(info)")
            #expect(info["read"] as? String == "polled", "\(info)")
            // Why it is polled when it has a buffer (a chip with none has no other way).
            if info["buffer"] as? String == "yes" {
                #expect((info["polledBecause"] as? String)?.contains("no trigger") == true, "why it is polled: \(info)")
            } else {
                #expect(info["polledBecause"] is NSNull, "\(info)")
            }
            let scale = (info["scale"] as? [String])?.compactMap(Double.init) ?? []
            let driverScale = Double((info["driverScale"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(scale.count == 3 && scale.allSatisfy { $0 == driverScale }, "the driver's own scale: \(info)")
            // lis3dh has a scale per axis, the others one shared.
            #expect(info["scaleSource"] as? String == (chip == "lis3dh" ? "in_accel_{x,y,z}_scale" : "in_accel_scale"), "\(info)")
            let reading = (info["reading"] as? [String])?.compactMap(Double.init) ?? []
            let g = sqrt(reading.map { $0 * $0 }.reduce(0, +))
            #expect(reading.count == 3 && abs(g - 9.81) < 1.5, "a reading near 1 g through the driver: \(info)")
            #expect(info["doctor"] as? String == "ok,ok,ok,", "doctor's sensor, readings and gravity: \(info)")
            if chip == "mxc4005" {
                #expect(info["samplingFrequency"] is NSNull, "mxc4005 has no rate to set: \(info)")
            } else {
                #expect(info["samplingFrequency"] as? Double != nil, "\(info)")
            }
        }
    }
}

extension RealKernelTests {
    @Test(
        "2-in-1 on I2C: a bma250e display and a bmc150 base, told apart by ACCEL_LOCATION from a local hwdb entry; the hinge turns the mode",
        .beyondTheCore)
    func i2cTwoInOne() throws {
        // As on Yoga-class machines with two Bosch parts: the base is named by udev's
        // ACCEL_LOCATION, here from a hwdb entry on the base chip's modalias (i2c:NAME;
        // a real machine's entry adds its DMI).
        let (display, base) = try Self.hingeRecordings()
        let result = try Guest.run(script: "i2c-two-in-one", [display, base], timeout: 180)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let hinge = try #require(lines.first { $0.hasPrefix("hinge: ") }, "\(result.stdout)")
        let angles = hinge.matches(of: /"hinge",(\d+)\]/).compactMap { Int($0.1) }
        #expect(angles.first.map { abs($0 - 100) <= 5 } == true && angles.last.map { abs($0 - 300) <= 5 } == true, "\(hinge)")
        let list = try #require(lines.first { $0.hasPrefix("list: ") }, "\(result.stdout)")
        #expect(list.contains(#""name":"bmc150_accel","location":"base","chosen":false"#), "\(list)")
        // The display has no ACCEL_LOCATION: `unknown`, taken as the display and read.
        #expect(list.contains(#""name":"bma250e","location":"unknown","chosen":true"#), "\(list)")
    }

    @Test(
        "an I2C chip deleted and instantiated again 20 times (the driver unbound and bound): lost and attached, events resume, no growth",
        .beyondTheCore)
    func i2cTwentyHotPlugs() throws {
        try Self.hotPlugTwentyTimes(feederOptions: "--driver kxcjk1013")
    }
}

extension RealKernelTests {
    @Test(
        "an I2C chip that probes but reads zeros: no orientation, one warning naming the device and what it read, the daemon keeps running",
        .beyondTheCore)
    func i2cReadsZeros() throws {
        let scratch = try Scratch()
        let zeros = try scratch.write("zeros.csv", Scratch.stillRecording([(0, 0, 0)], seconds: 6))
        let play = try Guest.play(zeros, ["--driver", "bma250e"])
        #expect(play.status == 0, "\(play.stderr)")
        let orientations = (play.events ?? []).filter { $0["event"] as? String == "orientation" }
        #expect(orientations.isEmpty, "a sensor reading nothing turns nothing: \(play.stdout)")
        let journal = try Guest.run(
            """
            daemon_journal | grep 'warning'
            echo "restarts: $(restarts)"
            """)
        let warnings = journal.stdout.split(separator: "\n").filter { $0.contains("implausible readings") && $0.contains("all zero") }
        #expect(warnings.count == 1, "one warning: \(journal.stdout)")
        #expect(warnings.first?.contains("iio:device") == true, "naming the device: \(journal.stdout)")
        #expect(journal.stdout.contains("restarts: 0"), "\(journal.stdout)")
    }

    /// Debian 12's kernel is built without iio-trig-hrtimer (CONFIG_IIO_HRTIMER_TRIGGER).
    static let hasHrtimerTrigger = Guest.dist != "bookworm"

    @Test(
        "an I2C chip given an hrtimer trigger by an administrator's udev rule: read buffered, what replay prints; the trigger slowed at rest and set back",
        .beyondThePackage, .enabled(if: hasHrtimerTrigger, "\(Guest.name)'s kernel has no iio-trig-hrtimer, or no i2c-stub"))
    func i2cThroughHrtimerTrigger() throws {
        // The administrator's recipe (docs/live-sensors.md): a trigger made in configfs,
        // given to the chip by a udev rule as it appears, before orientd opens it. A
        // sampler logs the trigger's rate as the kernel holds it, every 0.2 s.
        let setup = try Guest.run(script: "i2c-hrtimer-trigger")
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(setup.stdout.hasPrefix("orientd -rw-rw-r--"), "the package's rule gives orientd the trigger's rate: \(setup.stdout)")
        let path = Self.recordings.appendingPathComponent("turned-after-lying-still.csv").path
        let play = try Guest.play(path, ["--driver", "lis3dh"])
        let log = try Guest.run(
            """
            systemctl stop orientd-test-trigger-rate
            cat /run/trigger-rate.log; rm -f /run/trigger-rate.log
            rmdir /sys/kernel/config/iio/triggers/hrtimer/orientd-test
            """)
        // A turn from rest is seen at the first rest reading after it, which orientd takes
        // one trigger period after it is due, and the trigger runs out its slow period
        // before the full rate: at 10 Hz up to 0.2 s behind replay's schedule, plus TCG's
        // scheduling (0.19 s seen, 0.31 s in one CI run).
        try Self.expectSameAsReplay(path, play: play, within: 0.4)
        #expect(try Self.firstRead(in: play)["read"] as? String == "buffered", "the trigger makes the buffer usable: \(play.stdout)")
        let rates = log.stdout.split(separator: "\n").compactMap { Double($0) }
        // Slowed to 10 Hz while still, not the rest rate: the first scan after a move
        // waits out the period running (TriggerPace.longestPeriodAtRest).
        let rest = TriggerPace.rate(for: .rest, rest: AdaptiveRateParameters().restRate, administrator: 50)
        #expect(rates.contains { abs($0 - rest) < 0.01 }, "slowed while still: \(rates)")
        #expect(rates.last.map { abs($0 - 50) < 0.01 } == true, "the administrator's 50 Hz once orientd stopped reading: \(rates)")
        let slowed = rates.filter { abs($0 - rest) < 0.01 }.count
        print("real kernel, \(Guest.name), lis3dh, hrtimer trigger: \(slowed) of \(rates.count) readings of its rate at \(rest) Hz")
    }
}
