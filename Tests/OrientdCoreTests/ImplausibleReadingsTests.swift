import Testing

@testable import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Implausible readings")
struct ImplausibleReadingsTests {
    /// `spans`: (reading, seconds) at 50 Hz from 0; the reports with the time each came.
    func reports(_ spans: [(Vector3, Double)], hold: Double = 1) -> [(time: Double, report: ImplausibleReadings.Report)] {
        var check = ImplausibleReadings(hold: hold)
        var t = 0.0
        var out: [(Double, ImplausibleReadings.Report)] = []
        for (reading, seconds) in spans {
            for _ in 0..<Int((seconds * 50).rounded()) {
                if let report = check.check(Sample(time: t, acceleration: reading)) { out.append((t, report)) }
                t = ((t + 0.02) * 1000).rounded() / 1000
            }
        }
        return out
    }

    /// A service reading iio:device0.
    func attachedService() -> OrientationService {
        var service = OrientationService(pipeline: OrientationPipeline())
        service.attach(source: "iio:device0", mountMatrix: .identity, event: nil)
        return service
    }

    @Test("all zero for 2 s: said once after 1 s, and once when readings have been plausible 1 s again")
    func zeros() {
        let found = reports([(rest(roll: 0), 1), (Vector3(0, 0, 0), 2), (rest(roll: 0), 2)])
        #expect(found.count == 2, "\(found)")
        #expect(found.first?.time == 2 && found.first?.report == .began(.allZero, reading: Vector3(0, 0, 0), since: 1))
        #expect(found.last?.time == 4 && found.last?.report == .ended(since: 3, lasting: 2))
    }

    @Test("saturated counts (±32767 at 0.01 m/s² a count) are beyond gravity")
    func saturated() {
        let saturated = Vector3(327.67, 327.67, -327.67)
        let found = reports([(saturated, 1.5)])
        #expect(found.map(\.report) == [.began(.beyondGravity, reading: saturated, since: 0)])
        let message = ImplausibleReadings.message(found[0].report, device: "iio:device0")
        #expect(message.hasPrefix("iio:device0: implausible readings since 0.0 s: (327.670, 327.670, -327.670) m/s², 57.9 g"), "\(message)")
    }

    @Test("a knock (0.3 s at 6 g), a short fall (0.5 s of zeros) and hard shaking are no episode")
    func shortRuns() {
        #expect(reports([(rest(roll: 0), 1), (Vector3(0, -6 * g, 0), 0.3), (rest(roll: 0), 1), (Vector3(0, 0, 0), 0.5)]).isEmpty)
        #expect(reports([(Vector3(0, -2.9 * g, 0), 3)]).isEmpty, "2.9 g is within the limit")
        // 5 Hz at ±4 g, a sample each 0.02 s: it passes through 1 g every 0.1 s.
        let shaking = (0..<150).map { i in (Vector3(0, -g + 4 * g * sin(2 * .pi * 5 * Double(i) * 0.02), 0), 0.02) }
        #expect(reports(shaking).isEmpty, "hard shaking is no episode")
    }

    @Test("plausible moments inside an episode do not end it; the kinds may alternate")
    func flapping() {
        let found = reports([
            (Vector3(0, 0, 0), 1.5), (rest(roll: 0), 0.5), (Vector3(0, 50 * g, 0), 1.5), (rest(roll: 0), 0.9), (Vector3(0, 0, 0), 0.2),
            (rest(roll: 0), 1.2),
        ])
        #expect(found.count == 2, "\(found)")
        if case .ended(let since, let lasting) = found.last?.report {
            #expect(abs(since - 4.6) < 1e-9 && abs(lasting - 4.6) < 1e-9, "\(since) \(lasting)")
        } else {
            Issue.record("no end: \(found)")
        }
    }

    @Test("through the service: one warning and one note naming the device, no turn from garbage, the next turn reported")
    func service() {
        var service = attachedService()
        var warnings: [String] = []
        var notes: [String] = []
        var poses: [(Double, DeviceOrientation)] = []
        var t = 0.0
        for (reading, seconds) in [(rest(roll: 0), 2.0), (Vector3(0, 0, 0), 3), (Vector3(327.67, 0, 0), 3), (rest(roll: 90), 3)] {
            for _ in 0..<Int(seconds * 50) {
                service.process(Sample(time: t, acceleration: reading))
                t += 0.02
                for item in service.takeOutbox() {
                    switch item {
                    case .warning(let text): warnings.append(text)
                    case .note(let text): notes.append(text)
                    case .orientation(let event): poses.append((event.time, event.device))
                    default: break
                    }
                }
            }
        }
        let expected = "iio:device0: implausible readings since 2.0 s: (0.000, 0.000, 0.000) m/s², all zero"
        #expect(warnings.count == 1 && warnings[0].hasPrefix(expected), "\(warnings)")
        #expect(notes.count == 1 && notes[0].contains("after 6.0 s of implausible ones"), "\(notes)")
        #expect(poses.map(\.1) == [.portrait, .landscapeLeft], "\(poses)")
        #expect(poses.last.map { $0.0 >= 8 && $0.0 < 8.5 } == true, "the turn after the garbage, reported at once: \(poses)")
    }

    @Test("readings at rest (not classified) are checked too")
    func atRest() {
        var service = attachedService()
        var warnings: [String] = []
        for i in 0..<6 {
            service.still(Sample(time: Double(i) * 0.5, acceleration: Vector3(0, 0, 0)))
            for case .warning(let text) in service.takeOutbox() { warnings.append(text) }
        }
        #expect(warnings.count == 1 && warnings[0].contains("all zero"), "\(warnings)")
    }

    @Test("readings in counts from the start: the units check's warning alone")
    func countsAreAScaleProblem() {
        var service = attachedService()
        var warnings: [String] = []
        for i in 0..<200 {
            service.process(Sample(time: Double(i) * 0.02, acceleration: Vector3(0, -1024, 0)))
            for case .warning(let text) in service.takeOutbox() { warnings.append(text) }
        }
        #expect(warnings.count == 1 && warnings[0].contains("not gravity"), "\(warnings)")
    }

    @Test("the units check says nothing of readings that are all zero")
    func unitsIgnoreZeros() {
        var units = UnitsCheck(window: 10)
        #expect((0..<30).compactMap { _ in units.check(Vector3(0, 0, 0)) }.isEmpty)
    }
}
