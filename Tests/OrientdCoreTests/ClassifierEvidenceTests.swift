import Testing

@testable import OrientdCore

@Suite("Classifier evidence: what holds a pose back")
struct ClassifierEvidenceTests {
    /// Feeds readings at 50 Hz until the evidence proposes `pose`, then for `after` s more
    /// (by default one reading: the second of minimum-samples); returns the evidence then.
    func proposing(
        _ pose: DeviceOrientation, _ c: inout OrientationClassifier, reading: (Double) -> Vector3, from start: Double,
        after: Double = 0.02
    ) throws -> ClassifierEvidence {
        var t = start
        while c.evidence.proposed != pose {
            _ = c.update(time: t, acceleration: reading(t))
            t += 0.02
            try #require(t < start + 1, "\(pose) never proposed")
        }
        let until = t + after
        while t < until - 1e-9 {
            _ = c.update(time: t, acceleration: reading(t))
            t += 0.02
        }
        return c.evidence
    }

    @Test("the first reading: one of the two readings the first pose needs")
    func first() {
        var c = OrientationClassifier()
        _ = c.update(time: 0, acceleration: rest(roll: 0, tilt: 20))
        let evidence = c.evidence
        #expect(evidence.reported == .unknown)
        #expect(evidence.proposed == .portrait)
        #expect(evidence.holdBack == .readings(have: 1, need: 2))
        _ = c.update(time: 0.02, acceleration: rest(roll: 0, tilt: 20))
        #expect(c.evidence.reported == .portrait)
        #expect(c.evidence.proposed == nil && c.evidence.holdBack == nil)
    }

    @Test("a turn waits for its hold, then for a tap to settle")
    func holdThenTap() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 0, tilt: 20), from: 0, duration: 1, rate: 50)
        let turning = try proposing(.landscapeLeft, &c, reading: { _ in rest(roll: 90, tilt: 20) }, from: 1)
        #expect(turning.holdBack == .hold(seconds: 0.12, reason: .usual))
        #expect(turning.proposedSince >= 1 && turning.proposedSince <= turning.time)
        // A tap within the hold: settle-time from it, past the hold's end.
        let since = turning.proposedSince
        feed(&c, rest(roll: 90, tilt: 20), from: turning.time + 0.02, duration: 0.04, rate: 50)
        let tap = c.evidence.time + 0.02
        #expect(c.update(time: tap, acceleration: rest(roll: 90, tilt: 20, magnitude: 25)) == nil)
        feed(&c, rest(roll: 90, tilt: 20), from: tap + 0.02, duration: since + 0.14 - tap, rate: 50)
        let settling = c.evidence
        #expect(settling.time - since >= 0.12, "past the hold")
        #expect(settling.proposed == .landscapeLeft && settling.proposedSince == since)
        // The vibration filter carries the tap into the next reading too.
        let disturbance = try #require(settling.lastDisturbance)
        #expect(disturbance >= tap && disturbance <= settling.time)
        #expect(settling.holdBack == .disturbance(at: disturbance))
    }

    @Test("flat short of face-sure-tilt: face-hold-time; at face-sure-tilt: hold-time")
    func towardsFace() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 0, tilt: 20), from: 0, duration: 1, rate: 50)
        let steep = try proposing(.faceUp, &c, reading: { _ in rest(roll: 0, tilt: 82) }, from: 1)
        #expect(steep.holdBack == .hold(seconds: 0.3, reason: .steepToFace))
        var d = OrientationClassifier()
        feed(&d, rest(roll: 0, tilt: 20), from: 0, duration: 1, rate: 50)
        let flat = try proposing(.faceUp, &d, reading: { _ in rest(roll: 0, tilt: 89) }, from: 1, after: 0.08)
        #expect(flat.holdBack == .hold(seconds: 0.12, reason: .usual))
    }

    @Test("off flat to another upright pose: flat-settle-time after it lay flat")
    func offFlat() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 0, tilt: 20), from: 0, duration: 1, rate: 50)
        feed(&c, rest(roll: 0, tilt: 90), from: 1, duration: 1, rate: 50)
        #expect(c.orientation == .faceUp)
        // Lifted to landscape-left; past its hold, the flat stretch's end still holds it.
        let lifted = try proposing(.landscapeLeft, &c, reading: { _ in rest(roll: 90, tilt: 40) }, from: 2, after: 0.14)
        guard case .offFlat(let since) = lifted.holdBack else {
            Issue.record("held back by \(String(describing: lifted.holdBack)), not lying flat")
            return
        }
        #expect(since >= 2 && since < lifted.time && lifted.time - since < 0.3)
    }

    @Test("while walking: face-hold-time to face-up, walking-return-time back to the last upright pose")
    func walking() throws {
        // Steps: every 0.5 s the magnitude rises 2.5 m/s² for 0.1 s.
        func step(_ roll: Double, _ tilt: Double) -> (Double) -> Vector3 {
            { t in rest(roll: roll, tilt: tilt, magnitude: g + (t.truncatingRemainder(dividingBy: 0.5) < 0.1 ? 2.5 : 0)) }
        }
        var c = OrientationClassifier()
        for i in 0..<150 { _ = c.update(time: Double(i) / 50, acceleration: step(0, 40)(Double(i) / 50)) }
        #expect(c.evidence.walking)
        let toFace = try proposing(.faceUp, &c, reading: step(0, 89), from: 3)
        #expect(toFace.holdBack == .hold(seconds: 0.3, reason: .walkingToFace))
        for i in 0..<50 {
            _ = c.update(time: toFace.time + 0.02 * Double(i + 1), acceleration: step(0, 89)(toFace.time + 0.02 * Double(i + 1)))
        }
        #expect(c.orientation == .faceUp)
        let back = try proposing(.portrait, &c, reading: step(0, 40), from: c.evidence.time + 0.02)
        #expect(back.holdBack == .hold(seconds: 0.5, reason: .walkingBack))
    }

    @Test("a reported pose has nothing pending; a pending one is always held back by something")
    func pendingIsHeldBack() {
        var c = OrientationClassifier()
        var random = TestRandom(state: 7)
        for i in 0..<3000 {
            let t = Double(i) / 50
            let roll = Double((i / 150) % 4) * 90 + (random.uniform() * 60 - 30)
            let tilt = (random.uniform() * 105 - 10)
            let reading = rest(roll: roll, tilt: min(tilt, 90), magnitude: g + (i % 37 == 0 ? 15 : 0))
            let change = c.update(time: t, acceleration: reading)
            let evidence = c.evidence
            #expect(evidence.time == t)
            if let change { #expect(evidence.reported == change && evidence.proposed == nil) }
            #expect((evidence.proposed == nil) == (evidence.holdBack == nil), "at \(t) s")
        }
    }

    @Test("tilt and turn of the filtered gravity, and the angle from a pose")
    func direction() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 100, tilt: 30), from: 0, duration: 1, rate: 50)
        let evidence = c.evidence
        #expect(abs(try #require(evidence.tilt) - 30) < 0.01)
        #expect(abs(try #require(evidence.turn) - 100) < 0.01)
        #expect(abs(try #require(evidence.angle(from: .faceUp)) - 60) < 0.01)
        feed(&c, rest(roll: 270, tilt: -10), from: 1, duration: 1, rate: 50)
        #expect(abs(try #require(c.evidence.turn) - 270) < 0.01)
        #expect(OrientationClassifier().evidence.tilt == nil && OrientationClassifier().evidence.turn == nil)
    }
}
