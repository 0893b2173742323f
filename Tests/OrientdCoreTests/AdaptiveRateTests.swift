import Testing

@testable import OrientdCore

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
    func restsWhenStill() {
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
        #expect(schedule.due != nil)
    }

    @Test("the first reading at rest that moved brings the full rate back, and is classified")
    func motionWakes() {
        var schedule = AdaptiveRate()
        _ = feed(&schedule, rest(roll: 0), from: 0, seconds: 5)
        #expect(schedule.pace == .rest)
        // 6° away: 1.0 m/s² from the anchor, over the 0.6 threshold.
        let turned = feed(&schedule, rest(roll: 6), from: 5, seconds: 1)
        let first = turned.first { $0.decision.isRead }
        #expect(first?.decision == .classify(paceChange: .full))
        #expect(first.map { $0.time - 5 }.map { $0 < 0.5 } == true)
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
        #expect(woke == 3 + 8 * 0.5)

        var noisy = AdaptiveRate()
        _ = feed(&noisy, rest(roll: 0), from: 0, seconds: 3)
        for i in 0..<100 {
            let jitter = Vector3(i % 2 == 0 ? 0.3 : -0.3, i % 3 == 0 ? 0.3 : -0.3, 0)
            _ = noisy.admit(Sample(time: 3 + Double(i) * 0.02, acceleration: rest(roll: 0) + jitter))
        }
        #expect(noisy.pace == .rest)
    }

    @Test("a turn at the full rate keeps it full until rest-after has passed since the last motion")
    func staysFullWhileMoving() {
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
        #expect(rests.first.map { abs($0 - (2 + 1.5)) < 1e-9 } == true, "\(rests)")
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
