import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// The commands end to end. An extension of `LiveSensorTests` so they share its one
/// serialized suite: a testbed is process-wide, two at once would see each other.
extension LiveSensorTests {
    @Test("orientd list shows the sensor, its sources and the one run would read, as text and JSON")
    func list() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(number: 0, extraAttributes: ["label": "accel-base"]))
        try bed.add(FakeAccelerometer.polled(number: 1, properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"]))
        let text = try OrientdProcess.run(["list"], timeout: 10)
        #expect(text.status == 0)
        #expect(text.stdout.contains("* iio:device1  bmc150_accel"))
        #expect(text.stdout.contains("  iio:device0  bmc150_accel  label accel-base"))
        #expect(text.stdout.contains("0, 1, 0; -1, 0, 0; 0, 0, 1 (udev ACCEL_MOUNT_MATRIX)"))
        #expect(text.stdout.contains("0.009582 m/s² per count (in_accel_scale)"))
        #expect(text.stdout.contains("read              polled"))
        let json = try OrientdProcess.run(["list", "--json"], timeout: 10)
        #expect(json.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["device"] as? String } == ["iio:device0", "iio:device1"])
        #expect(array.map { $0["chosen"] as? Bool } == [false, true])
        #expect(array.first?["location"] as? String == "base")
    }

    @Test("a sampling_frequency of 0 is no rate: null in list, with a warning naming the device and the attribute")
    func zeroSamplingFrequency() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(samplingFrequency: "0", samplingFrequencyAvailable: nil))
        let json = try OrientdProcess.run(["list", "--json"], timeout: 10)
        #expect(json.status == 0, "\(json.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let sensor = try #require(array.first)
        #expect(sensor["samplingFrequency"] is NSNull, "\(sensor)")
        let warnings = sensor["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("iio:device0: sampling_frequency: reads 0 Hz, which is no rate") }, "\(warnings)")
    }

    @Test("orientd list exits as run would: 69 with no accelerometer, or with only a base one, after printing what it found")
    func listWithoutDisplaySensor() throws {
        let bed = Testbed()
        let none = try OrientdProcess.run(["list"], timeout: 10)
        #expect(none.status == 69)
        #expect(none.stdout.contains("No accelerometer found"))
        let noneJSON = try OrientdProcess.run(["list", "--json"], timeout: 10)
        #expect(noneJSON.status == 69)
        #expect(noneJSON.stdout == "[]\n")
        try bed.add(FakeAccelerometer.polled(number: 0, extraAttributes: ["label": "accel-base"]))
        let baseOnly = try OrientdProcess.run(["list"], timeout: 10)
        #expect(baseOnly.status == 69)
        #expect(baseOnly.stdout.contains("iio:device0"))
        #expect(baseOnly.stdout.contains("'run' would read none"))
        #expect(try OrientdProcess.run(["run"], timeout: 10).status == 69)
    }

    @Test("orientd record writes a recording that replay reads back to the same pose")
    func recordAndReplay() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (-1024, 0, 60)))
        let recorded = try OrientdProcess.run(["record", "--seconds", "0.5", "--rate", "50"], timeout: 10)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.hasPrefix("# orientd-recording 1\n"))
        #expect(recorded.stdout.contains("# device: iio:device0 bmc150_accel"))
        let lines = recorded.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(lines.count >= 20 && lines.count <= 30, "\(lines.count) samples in 0.5 s at 50 Hz")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-recorded-\(UUID()).csv")
        try recorded.stdout.write(to: file, atomically: true, encoding: .utf8)
        let replayed = try OrientdProcess.run(["replay", "--fast", file.path], timeout: 10)
        #expect(replayed.stdout.contains("\"device\":\"landscape-left\""), "\(replayed.stdout) \(replayed.stderr)")
    }

    @Test(
        "orientd record says when the sensor offers a change sensitivity, so replay plays as on it; a scale in no unit the driver knows is a warning naming the attribute"
    )
    func recordSaysSensitivity() throws {
        #expect(!(try recordHeader(scale: "0.01", hysteresis: nil)).contains("change-sensitivity"))
        let offered = try recordHeader(scale: "0.01", hysteresis: "0.000000")
        #expect(offered.contains("# change-sensitivity: offered\n"), "\(offered)")
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(extraAttributes: ["in_accel_hysteresis": "0.000000"]))
        let list = try OrientdProcess.run(["list"], timeout: 10)
        #expect(
            list.stdout.contains("iio:device0: in_accel_hysteresis: offered, but in_accel_scale 0.009582 is neither g nor m/s²"),
            "\(list.stdout)")
    }

    /// The header `orientd record` writes for a fake sensor with this scale and change
    /// sensitivity.
    func recordHeader(scale: String, hysteresis: String?) throws -> String {
        let bed = Testbed()
        try bed.add(
            FakeAccelerometer.polled(
                raw: (-102, 0, 6), extraAttributes: hysteresis.map { ["in_accel_hysteresis": $0] } ?? [:], scale: scale))
        let recorded = try OrientdProcess.run(["record", "--seconds", "0.2", "--rate", "50"], timeout: 10)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        return recorded.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.joined(separator: "\n") + "\n"
    }

    @Test("orientd run: a sensor event, then orientation events; with no sensor, exit 69 and what to do")
    func run() throws {
        let bed = Testbed()
        let none = try OrientdProcess.run(["run"], timeout: 10)
        #expect(none.status == 69)
        #expect(none.stderr.contains("no accelerometer found"))
        #expect(none.stderr.contains("orientd replay Recordings/"))
        #expect(none.stderr.contains("--wait"))
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 60)))
        let daemon = try DaemonProcess(["run"])
        #expect(daemon.waitForLine { $0.contains(#""device":"portrait""#) } != nil, "\(daemon.standardError)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.standardError)")
        let events = daemon.output.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.first?["event"] as? String == "sensor")
        #expect(events.first?["state"] as? String == "attached")
        #expect(events.first?["read"] as? String == "polled")
        #expect(events.dropFirst().first?["device"] as? String == "portrait")
    }
}

extension LiveSensorTests {
    @Test("--uri reads a sensor through iiod (on loopback) with the same code as a local one")
    func remoteThroughIiod() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (-1024, 0, 60)))
        let iiod = Process()
        iiod.executableURL = URL(fileURLWithPath: "/usr/sbin/iiod")
        iiod.standardOutput = FileHandle.nullDevice
        iiod.standardError = FileHandle.nullDevice
        try iiod.start()
        defer {
            // SIGKILL: iiod may not answer SIGTERM while a client thread is blocked.
            kill(iiod.processIdentifier, SIGKILL)
            iiod.waitForEnd()
        }
        // iiod serves the testbed's devices; wait until it answers.
        var listed = try OrientdProcess.run(["list", "--json", "--uri", "ip:127.0.0.1"], timeout: 10)
        for _ in 0..<30 where !listed.stdout.contains("iio:device0") {
            usleep(100_000)
            listed = try OrientdProcess.run(["list", "--json", "--uri", "ip:127.0.0.1"], timeout: 10)
        }
        let array = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
        #expect(iiod.isRunning, "iiod exited (is another iiod holding port 30431?)")
        #expect(array.first?["device"] as? String == "iio:device0")
        #expect(array.first?["path"] as? String == "ip:127.0.0.1 iio:device0")
        let daemon = try DaemonProcess(["run", "--uri", "ip:127.0.0.1"])
        let turned = daemon.waitForLine { $0.contains(#""device":"landscape-left""#) }
        #expect(turned != nil, "\(daemon.output) \(daemon.standardError)")
        #expect(daemon.output.contains { $0.contains(#""event":"sensor","state":"attached""#) })
    }
}

extension LiveSensorTests {
    @Test("orientd run says so when the readings are counts, not m/s² (a scale of 1)")
    func wrongUnits() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 0), scale: "1"))
        let daemon = try DaemonProcess(["run"])
        let said = daemon.waitForError("iio:device0: readings are about 1024.000 m/s² (104.419 g), not gravity")
        #expect(said, "\(daemon.standardError)")
        // Readings that were gravity would turn it to portrait within its first second
        // (run, above); these must not, in twice that.
        #expect(daemon.waitForLine(timeout: 2) { $0.contains(#""event":"orientation""#) } == nil, "no pose is decided from such readings")
    }
}
