import Testing

@testable import OrientdCore

@Suite("Readings that do not update")
struct FrozenReadingsTests {
    /// Upright with a count of noise on x, as a real sensor reads at rest.
    static func noisy(_ i: Int) -> Vector3 { Vector3(i % 2 == 0 ? 0.03 : 0.04, -9.79, 0.3) }
    static let held = Vector3(0.02, -9.79, 0.3)

    @Test("the same reading for 10 s and 20 readings: said once, with when it began; a different one ends it, said once")
    func episode() {
        var check = FrozenReadings()
        var reports: [(Double, FrozenReadings.Report)] = []
        // 5 s of noise at 50 Hz, 15 s of one value, then noise again.
        for i in 0..<1500 {
            let t = Double(i) * 0.02
            let a = t >= 5 && t < 20 ? Self.held : Self.noisy(i)
            if let report = check.check(Sample(time: t, acceleration: a)) { reports.append((t, report)) }
        }
        #expect(reports.count == 2, "\(reports)")
        #expect(reports.first.map { abs($0.0 - 15) < 1e-9 } == true, "10 s after the run began: \(reports)")
        guard case .began(let reading, let since, let count)? = reports.first?.1 else {
            Issue.record("no beginning: \(reports)")
            return
        }
        #expect(reading == Self.held && abs(since - 5) < 1e-9 && count == 501, "\(reports)")
        #expect(reports.last.map { abs($0.0 - 20) < 1e-9 && $0.1 == .ended(at: $0.0, lasting: $0.0 - since) } == true, "\(reports)")
    }

    @Test("at the rest rate (2 a second) 20 readings decide; at a slow rate the 10 s do; noise never freezes")
    func readingsAndSeconds() {
        var rest = FrozenReadings()
        let restReports = (0..<30).compactMap { rest.check(Sample(time: Double($0) * 0.5, acceleration: Self.held)) }
        #expect(restReports.count == 1)
        if case .began(_, _, let count)? = restReports.first { #expect(count == 21, "10 s from the first: the 21st reading") }
        var slow = FrozenReadings()
        let early = (0..<15).compactMap { slow.check(Sample(time: Double($0) * 0.1, acceleration: Self.held)) }
        #expect(early.isEmpty, "15 readings in 1.5 s: too few and too short")
        var noise = FrozenReadings()
        #expect((0..<5000).compactMap { noise.check(Sample(time: Double($0) * 0.02, acceleration: Self.noisy($0))) }.isEmpty)
        #expect(!noise.isFrozen)
    }

    @Test("all zero or saturated is left to ImplausibleReadings; the message names the device, the value and the count")
    func implausibleAndWords() {
        var zeros = FrozenReadings()
        #expect((0..<1000).compactMap { zeros.check(Sample(time: Double($0) * 0.02, acceleration: Vector3(0, 0, 0))) }.isEmpty)
        let words = FrozenReadings.message(.began(reading: Self.held, since: 4, count: 21), device: "iio:device1")
        #expect(
            words.hasPrefix(
                "iio:device1: its values are not updating: every reading since 4 s (21 of them) has been (0.02, -9.79, 0.3) m/s²"),
            "\(words)")
        #expect(
            FrozenReadings.message(.ended(at: 20, lasting: 16), device: "iio:device1")
                == "iio:device1: its values change again, after 16 s of one reading")
    }

    @Test("through the service: one warning, status' sensor-trouble frozen while it lasts, one note at its end, the turn after reported")
    func service() {
        var service = OrientationService(pipeline: OrientationPipeline())
        service.attach(source: "iio:device0", mountMatrix: .identity, event: nil)
        var warnings: [String] = []
        var notes: [String] = []
        var poses: [DeviceOrientation] = []
        var troubles: [SensorTrouble?] = []
        for i in 0..<1500 {
            let t = Double(i) * 0.02
            let a = t < 2 ? Self.noisy(i) : t < 20 ? Self.held : Vector3(-9.79, Self.noisy(i).x, 0.3)
            service.process(Sample(time: t, acceleration: a))
            if i % 50 == 0 { troubles.append(service.sensorTrouble) }
            for item in service.takeOutbox() {
                switch item {
                case .warning(let text): warnings.append(text)
                case .note(let text): notes.append(text)
                case .orientation(let event): poses.append(event.device)
                default: break
                }
            }
        }
        #expect(warnings.count == 1 && warnings[0].contains("its values are not updating"), "\(warnings)")
        #expect(notes.count == 1 && notes[0].contains("change again"), "\(notes)")
        #expect(troubles[5] == nil && troubles[13] == .frozen(device: "iio:device0", since: 2) && troubles[21] == nil, "\(troubles)")
        #expect(poses == [.portrait, .landscapeLeft], "\(poses)")
    }
}
