import Testing

@testable import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Adaptive rate")
struct AdaptiveRateTests {
    /// Feeds a constant reading at 50 Hz for `seconds` from `from`; the decisions.
    func feed(
        _ schedule: inout AdaptiveRate, _ v: Vector3, from: Double, seconds: Double, rate: Double = 50
    ) -> [(time: Double, decision: AdaptiveRate.Decision)] {
        (0..<Int((seconds * rate).rounded())).map { i in
            let t = from + Double(i) / rate
            return (t, schedule.admit(Sample(time: t, acceleration: v)))
        }
    }

    @Test("a still device is read at full rate for rest-after, then once every rest interval, and not classified")
    func restsWhenStill() throws {
        var schedule = AdaptiveRate()
        let decisions = feed(&schedule, rest(roll: 0), from: 0, seconds: 10)
        let read = decisions.filter { $0.decision.isRead }
        // 1.5 s at 50 Hz (76 samples, the last one drops the rate), then 2 a second.
        let fullRate = read.filter { $0.time <= 1.5 + 1e-9 }
        #expect(fullRate.count == 76)
        #expect(decisions.first { $0.decision == .classify(paceChange: .rest) }?.time == 1.5)
        let atRest = read.filter { $0.time > 1.5 + 1e-9 }
        #expect(atRest.count == 17, "8.5 s at 2 Hz")
        #expect(atRest.allSatisfy { $0.decision == .still })
        let gaps = zip(atRest.dropFirst(), atRest).map { $0.time - $1.time }
        #expect(gaps.allSatisfy { abs($0 - 0.5) < 1e-9 }, "\(gaps)")
        #expect(schedule.pace == .rest)
        // The last reading, the grid's at 10 s, came at 9.98 s, inside the quarter
        // interval that still counts: the next is due at 10.5 s, and so from 10.375 s.
        let due = try #require(schedule.due)
        #expect(abs(due - (10.5 - 0.5 / 4)) < 1e-9, "\(due)")
    }

    @Test("the first reading at rest that moved brings the full rate back, and is classified")
    func motionWakes() throws {
        var schedule = AdaptiveRate()
        _ = feed(&schedule, rest(roll: 0), from: 0, seconds: 5)
        #expect(schedule.pace == .rest)
        // 6° away: 1.0 m/s² from the anchor, over the 0.6 threshold.
        let turned = feed(&schedule, rest(roll: 6), from: 5, seconds: 1)
        let first = turned.first { $0.decision.isRead }
        #expect(first?.decision == .classify(paceChange: .full))
        let delay = try #require(first).time - 5
        #expect(delay < 0.5)
        let after = turned.drop { $0.decision != .classify(paceChange: .full) }.dropFirst()
        #expect(after.allSatisfy { $0.decision == .classify(paceChange: nil) }, "every sample after the wake is read")
        #expect(schedule.pace == .full)
    }

    @Test("noise below the threshold keeps the rest; a slow drift that adds up to the threshold ends it")
    func driftAddsUp() {
        var schedule = AdaptiveRate()
        _ = feed(&schedule, rest(roll: 0), from: 0, seconds: 3)
        // 0.5° per reading at rest: each one is near the one before, but they add up
        // against the anchor the rest began with.
        var woke: Double?
        for i in 0..<40 {
            let t = 3 + Double(i) * 0.5
            if schedule.admit(Sample(time: t, acceleration: rest(roll: Double(i) * 0.5))) == .classify(paceChange: .full) {
                woke = t
                break
            }
        }
        // 0.6 m/s² is 3.5° of turn: the eighth step (4°; 3.5° is 0.599 m/s²).
        let eighthStep: Double = 3 + 8 * 0.5
        #expect(woke == eighthStep)

        var noisy = AdaptiveRate()
        _ = feed(&noisy, rest(roll: 0), from: 0, seconds: 3)
        for i in 0..<100 {
            let jitter = Vector3(i % 2 == 0 ? 0.3 : -0.3, i % 3 == 0 ? 0.3 : -0.3, 0)
            _ = noisy.admit(Sample(time: 3 + Double(i) * 0.02, acceleration: rest(roll: 0) + jitter))
        }
        #expect(noisy.pace == .rest)
    }

    @Test("a turn at the full rate keeps it full until rest-after has passed since the last motion")
    func staysFullWhileMoving() throws {
        var schedule = AdaptiveRate()
        var rests: [Double] = []
        for i in 0..<250 {
            let t = Double(i) * 0.02
            // Turning 1° per reading for the first 2 s, then still.
            let roll = min(Double(i), 100)
            if schedule.admit(Sample(time: t, acceleration: rest(roll: roll))) == .classify(paceChange: .rest) { rests.append(t) }
        }
        // Every fourth reading is 4° past the anchor (over 0.6 m/s², 3.5°) and moves it;
        // the last is the turn's end at 2 s, so the rest comes 1.5 s after that.
        #expect(rests.count == 1)
        let rested = try #require(rests.first)
        #expect(abs(rested - 3.5) < 1e-9, "\(rests)")
    }

    @Test("a sensor slowed to the rest rate, sending on its own clock a little early, loses no reading")
    func ownClock() {
        var schedule = AdaptiveRate()
        _ = feed(&schedule, rest(roll: 0), from: 0, seconds: 2)
        #expect(schedule.pace == .rest)
        // 2 Hz with jitter of ±30 ms, phase unrelated to the schedule's.
        var skipped = 0
        for i in 0..<20 {
            let t = 2.17 + Double(i) * 0.5 + (i % 2 == 0 ? 0.03 : -0.03)
            if schedule.admit(Sample(time: t, acceleration: rest(roll: 0))) == .skip { skipped += 1 }
        }
        #expect(skipped <= 1, "at most the first one, before the schedule takes the sensor's phase")
    }

    @Test("turned off, every sample is classified; a clock that goes back wakes it")
    func offAndClockBack() {
        var parameters = AdaptiveRateParameters()
        parameters.enabled = false
        var off = AdaptiveRate(parameters: parameters)
        #expect(feed(&off, rest(roll: 0), from: 0, seconds: 5).allSatisfy { $0.decision == .classify(paceChange: nil) })

        var schedule = AdaptiveRate()
        _ = feed(&schedule, rest(roll: 0), from: 0, seconds: 5)
        #expect(schedule.pace == .rest)
        #expect(schedule.admit(Sample(time: 1, acceleration: rest(roll: 0))) == .classify(paceChange: .full))
        schedule.restart()
        #expect(schedule.pace == .full)
    }

    @Test("parameters: each must be a positive number; rest-after must cover settle and hold")
    func validation() {
        var p = AdaptiveRateParameters()
        #expect(throws: Never.self) { try p.validate(against: ClassifierParameters()) }
        p.restRate = 0
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate(against: ClassifierParameters()) }
        p = AdaptiveRateParameters()
        p.motionThreshold = .nan
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate(against: ClassifierParameters()) }
        p = AdaptiveRateParameters()
        p.restAfter = 0.1
        do {
            try p.validate(against: ClassifierParameters())
            Issue.record("rest-after 0.1 accepted")
        } catch {
            #expect(error.name == "rest-after")
        }
    }
}

@Suite("Adaptive rate on a sensor that watches for motion")
struct WatchingSensorTests {
    /// The readings at `rate` Hz from `from` for `seconds`, each `reading(t)`; the decisions.
    func feed(
        _ schedule: inout AdaptiveRate, from: Double, seconds: Double, rate: Double = 50, _ reading: (Double) -> Vector3
    ) -> [(time: Double, decision: AdaptiveRate.Decision)] {
        (0..<Int((seconds * rate).rounded())).map { i in
            let t = from + Double(i) / rate
            return (t, schedule.admit(Sample(time: t, acceleration: reading(t))))
        }
    }

    @Test("still: rests to watch after rest-after, then reads nothing, however long, and nothing is classified")
    func readsNothingWhenStill() {
        var schedule = AdaptiveRate(sensorWatches: true)
        // A still sensor's noise: ±0.05 m/s², under the 0.6 sensitivity.
        let decisions = feed(&schedule, from: 0, seconds: 60) { t in rest(roll: 0) + Vector3(0.05 * sin(t * 37), 0.05 * cos(t * 23), 0) }
        #expect(decisions.first { $0.decision == .classify(paceChange: .watch) }?.time == 1.5)
        #expect(decisions.filter { $0.time > 1.5 + 1e-9 }.allSatisfy { $0.decision == .skip })
        #expect(schedule.pace == .watch)
        #expect(schedule.due == nil, "no grid to read on")
    }

    @Test("a turn from rest is read at its first sample past the sensitivity, and the full rate is back at the motion threshold")
    func turnIsSeenAtOnce() throws {
        var p = AdaptiveRateParameters()
        p.changeSensitivity = 0.3
        var schedule = AdaptiveRate(parameters: p, sensorWatches: true)
        _ = feed(&schedule, from: 0, seconds: 3) { _ in rest(roll: 0) }
        // 30° a second from 3 s: x moves 0.3 m/s² in about 0.06 s.
        let turn = feed(&schedule, from: 3, seconds: 1) { t in rest(roll: 30 * (t - 3)) }
        let read = turn.filter { $0.decision.isRead }
        let woke = turn.first { $0.decision == .classify(paceChange: .full) }
        let sent = try #require(read.first).time - 3
        #expect(sent < 0.1, "the sensor sent at once: \(read.prefix(3))")
        #expect(read.first?.decision == .still, "past a 0.3 sensitivity, short of the 0.6 motion threshold")
        let full = try #require(woke).time - 3
        #expect(full < 0.15, "full rate 0.6 m/s² in: \(full) s")
    }

    @Test("at the default sensitivity, the motion threshold, the first sample the sensor sends is motion")
    func defaultSendsMotion() throws {
        var schedule = AdaptiveRate(sensorWatches: true)
        _ = feed(&schedule, from: 0, seconds: 3) { _ in rest(roll: 0) }
        let turn = feed(&schedule, from: 3, seconds: 1) { t in rest(roll: 30 * (t - 3)) }
        let first = turn.first { $0.decision.isRead }
        #expect(first?.decision == .classify(paceChange: .full))
        let seen = try #require(first).time - 3
        #expect(seen < 0.15, "seen \(seen) s into the turn")
    }

    @Test("a turn too slow for any one sample to cross the sensitivity still adds up, as the sensor compares with what it last sent")
    func slowTurnAddsUp() throws {
        var schedule = AdaptiveRate(sensorWatches: true)
        _ = feed(&schedule, from: 0, seconds: 3) { _ in rest(roll: 0) }
        // 1° a second: 0.003 m/s² a sample at 50 Hz, a hundredth of the sensitivity.
        let turn = feed(&schedule, from: 3, seconds: 10) { t in rest(roll: t - 3) }
        let woke = turn.first { $0.decision == .classify(paceChange: .full) }
        // 0.6 m/s² is 3.5°: seen by 4.5 s of the turn.
        let seen = try #require(woke).time - 3
        #expect(seen > 3 && seen < 4.5, "seen \(seen) s into the turn")
    }

    @Test("off where the sensor offers none, or with change-sensitivity 0, or the adaptive rate off: the rest rate")
    func offWhereNotOffered() {
        var p = AdaptiveRateParameters()
        p.changeSensitivity = 0
        for var schedule in [AdaptiveRate(sensorWatches: false), AdaptiveRate(parameters: p, sensorWatches: true)] {
            _ = feed(&schedule, from: 0, seconds: 3) { _ in rest(roll: 0) }
            #expect(schedule.pace == .rest)
        }
        var off = AdaptiveRate(parameters: .off, sensorWatches: true)
        _ = feed(&off, from: 0, seconds: 3) { _ in rest(roll: 0) }
        #expect(off.pace == .full)
    }

    @Test("a sensor that will not take its sensitivity: rests at the rest rate from the last reading on")
    func stopWatching() {
        var schedule = AdaptiveRate(sensorWatches: true)
        _ = feed(&schedule, from: 0, seconds: 1.5 + 0.02) { _ in rest(roll: 0) }
        #expect(schedule.pace == .watch)
        schedule.stopWatching()
        #expect(schedule.pace == .rest)
        let after = feed(&schedule, from: 1.52, seconds: 2) { _ in rest(roll: 0) }.filter { $0.decision.isRead }
        #expect(after.count == 4, "2 a second: \(after.map(\.time))")
    }

    @Test("time going back while watching brings the full rate back")
    func timeBack() {
        var schedule = AdaptiveRate(sensorWatches: true)
        _ = feed(&schedule, from: 0, seconds: 3) { _ in rest(roll: 0) }
        #expect(schedule.admit(Sample(time: 1, acceleration: rest(roll: 0))) == .classify(paceChange: .full))
    }

    @Test("change-sensitivity: 0 or more, finite")
    func validation() throws {
        var p = AdaptiveRateParameters()
        p.changeSensitivity = 0
        try p.validate(against: ClassifierParameters())
        p.changeSensitivity = -0.1
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate(against: ClassifierParameters()) }
        p.changeSensitivity = .infinity
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate(against: ClassifierParameters()) }
    }
}

@Suite("A sensor's change sensitivity")
struct ChangeSensitivityTests {
    @Test("the unit from the scale: g or m/s² times a power of ten, as hid-sensor-accel-3d makes it; nothing else")
    func unit() {
        #expect(ChangeSensitivity.unit(ofScale: 0.01) == 1)
        #expect(ChangeSensitivity.unit(ofScale: 0.098066500) == 9.80665)
        #expect(ChangeSensitivity.unit(ofScale: 0.009806650) == 9.80665)
        #expect(ChangeSensitivity.unit(ofScale: 0.000098066) == 9.80665)
        #expect(ChangeSensitivity.unit(ofScale: 1) == 1)
        #expect(ChangeSensitivity.unit(ofScale: 0.0023956) == nil, "an I2C chip's counts")
        #expect(ChangeSensitivity.unit(ofScale: 0) == nil)
        #expect(ChangeSensitivity.unit(ofScale: .nan) == nil)
    }

    @Test("offered when the attribute reads a number; the text written for m/s² in the hub's unit, and read back")
    func resolve() throws {
        #expect(ChangeSensitivity.resolve(device: "iio:device0", attributeText: nil, scale: 0.01) == nil)
        #expect(ChangeSensitivity.resolve(device: "iio:device0", attributeText: "", scale: 0.01) == nil, "the driver's EINVAL")
        let metres = try #require(try ChangeSensitivity.resolve(device: "iio:device0", attributeText: "0.000000\n", scale: 0.01)?.get())
        #expect(metres.text(for: 0.3) == "0.3")
        #expect(metres.original == "0.000000")
        #expect(metres.metersPerSecondSquared(readBack: "0.300000\n") == 0.3)
        let g = try #require(try ChangeSensitivity.resolve(device: "iio:device0", attributeText: "0", scale: 0.0980665)?.get())
        #expect(g.text(for: 0.3) == "0.030591", "0.3 m/s² in g")
        guard case .failure(let issue) = ChangeSensitivity.resolve(device: "iio:device3", attributeText: "0", scale: 0.0023956) else {
            Issue.record("an unknown unit accepted")
            return
        }
        #expect(issue.description.hasPrefix("iio:device3: in_accel_hysteresis: offered, but in_accel_scale"))
    }
}

@Suite("A trigger's rate at each pace")
struct TriggerPaceTests {
    @Test("at rest slowed to a 0.1 s period, not the rest rate's 0.5 s; the administrator's rate at full pace")
    func slowedAtRest() {
        #expect(TriggerPace.rate(for: .rest, rest: 2, administrator: 50) == 10)
        #expect(TriggerPace.rate(for: .full, rest: 2, administrator: 50) == 50)
    }

    @Test("never faster than the administrator set it; a rest rate above 10 Hz is kept")
    func bounds() {
        #expect(TriggerPace.rate(for: .rest, rest: 2, administrator: 5) == 5)
        #expect(TriggerPace.rate(for: .full, rest: 2, administrator: 5) == 5)
        #expect(TriggerPace.rate(for: .rest, rest: 20, administrator: 50) == 20)
        #expect(TriggerPace.rate(for: .rest, rest: 100, administrator: 50) == 50)
    }
}
