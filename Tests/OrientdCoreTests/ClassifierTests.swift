import OrientdEvaluation
import Testing

@testable import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Classifier")
struct ClassifierTests {
    /// A classifier already settled in `pose` at time 0…1 s.
    func settled(in roll: Double, tilt: Double = 0, rate: Double = 50) -> OrientationClassifier {
        var c = OrientationClassifier()
        feed(&c, rest(roll: roll, tilt: tilt), from: 0, duration: 1, rate: rate)
        return c
    }

    @Test(
        "names every pose of the Linux axis convention (docs/events.md, 'Axes and names')",
        arguments: [
            (Vector3(0, -g, 0), DeviceOrientation.portrait),
            (Vector3(-g, 0, 0), .landscapeLeft),
            (Vector3(0, g, 0), .portraitUpsideDown),
            (Vector3(g, 0, 0), .landscapeRight),
            (Vector3(0, 0, g), .faceUp),
            (Vector3(0, 0, -g), .faceDown),
        ])
    func axisConvention(reading: Vector3, pose: DeviceOrientation) {
        var c = OrientationClassifier()
        let changes = feed(&c, reading, from: 0, duration: 0.5, rate: 50)
        #expect(changes.map(\.1) == [pose])
        #expect(c.orientation == pose)
    }

    @Test("the first pose comes within 50 ms at 50 Hz and needs two readings")
    func firstPoseIsQuick() throws {
        var c = OrientationClassifier()
        let changes = feed(&c, rest(roll: 0, tilt: 10), from: 0, duration: 0.2, rate: 50)
        let first = try #require(changes.first)
        #expect(first.0 <= 0.05)
        #expect(first.0 > 0, "one reading alone must not decide")
    }

    @Test(
        "after a rotation ends, the new pose comes within the bound at each rate",
        arguments: [1.0, 5, 10, 50, 100, 1000])
    func latencyAfterRotation(rate: Double) throws {
        var c = settled(in: 0, rate: rate)
        let changes = feed(&c, rest(roll: 90, tilt: 15), from: 1, duration: 5, rate: rate)
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.1 == .landscapeLeft)
        let latency = change.0 - 1
        #expect(latency <= LabelEvaluator.defaultLatencyBound(rate: rate) + 1e-9, "latency \(latency) at \(rate) Hz")
        #expect(latency >= min(ClassifierParameters().holdTime, 1 / rate) - 1e-9, "no instant decisions")
    }

    @Test("a single wild reading with a plausible magnitude changes nothing")
    func singleWildReading() {
        var c = settled(in: 0)
        var changes = feed(&c, rest(roll: 90), from: 1, duration: 0.02, rate: 50)
        changes += feed(&c, rest(roll: 0), from: 1.02, duration: 2, rate: 50)
        #expect(changes.isEmpty)
        #expect(c.orientation == .portrait)
    }

    @Test("taps of up to 30 m/s² in any direction change nothing", arguments: [10.0, 20, 30])
    func taps(strength: Double) {
        var c = settled(in: 0, tilt: 30)
        var random = TestRandom(state: UInt64(strength))
        var changes: [(Double, DeviceOrientation)] = []
        let base = rest(roll: 0, tilt: 30)
        for i in 0..<1000 {
            let t = 1 + Double(i) / 100
            var a = base + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.05
            // A tap every 0.5 s: an impulse into the screen with a sideways part, then ringing.
            let phase = i % 50
            if phase == 0 { a += Vector3(strength * 0.6, -strength * 0.3, -strength) }
            if phase == 1 { a += Vector3(-strength * 0.3, strength * 0.2, strength * 0.4) }
            if phase == 2 { a += Vector3(strength * 0.1, 0, -strength * 0.15) }
            if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
        }
        #expect(changes.isEmpty)
    }

    @Test("readings whose magnitude is not gravity never decide (a sensor reporting g, not m/s²)")
    func implausibleMagnitude() {
        var c = OrientationClassifier()
        let changes = feed(&c, Vector3(0, -1, 0), from: 0, duration: 5, rate: 50)
        #expect(changes.isEmpty)
        #expect(c.orientation == .unknown)
    }

    @Test("walking in portrait never flaps; turned to landscape while walking, it follows")
    func walking() throws {
        var c = settled(in: 0, tilt: 25)
        var random = TestRandom(state: 3)
        var changes: [(Double, DeviceOrientation)] = []
        func walk(roll: Double, from start: Double, seconds: Double) {
            let up = rest(roll: roll, tilt: 25) / g
            let side = Vector3(up.y, -up.x, 0).normalized
            for i in 0..<Int(seconds * 50) {
                let t = start + Double(i) / 50
                let step = 2 * Double.pi * 1.9 * t
                let vertical = 2.5 * sin(step) + 1.0 * sin(2 * step + 0.5)
                let sway = 1.0 * sin(step / 2)
                let wobble = 4 * Double.pi / 180 * sin(step / 2 + 1)
                let tilted = rest(roll: roll + wobble * 180 / .pi, tilt: 25)
                let a =
                    tilted + up * vertical + side * sway
                    + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.08
                if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
            }
        }
        walk(roll: 0, from: 1, seconds: 20)
        #expect(changes.isEmpty, "walking in portrait: \(changes)")
        walk(roll: 90, from: 21, seconds: 10)
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.1 == .landscapeLeft)
        #expect(change.0 - 21 <= 0.3)
    }

    @Test("a bus's vibration and bumps change nothing")
    func vehicleVibration() {
        var c = settled(in: 270, tilt: 35)
        var random = TestRandom(state: 11)
        var changes: [(Double, DeviceOrientation)] = []
        let base = rest(roll: 270, tilt: 35)
        for i in 0..<(60 * 100) {
            let t = 1 + Double(i) / 100
            var a = base + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.8
            if i % 700 < 8 { a += Vector3(2, 6, -8) * sin(Double(i % 700) / 8 * .pi) }  // a pothole
            if (i / 1500) % 2 == 1 { a += Vector3(0, 2.5, 0) }  // a long turn: centripetal
            if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
        }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test("held at, or swaying around, the 45° diagonal it keeps its pose", arguments: [0.0, 90, 180, 270])
    func diagonal(start: Double) {
        var c = settled(in: start)
        let before = c.orientation
        var random = TestRandom(state: 5)
        var changes: [(Double, DeviceOrientation)] = []
        for i in 0..<1000 {
            let t = 1 + Double(i) / 50
            let roll = start + 45 + 12 * sin(Double(i) / 20) + random.gaussian() * 2
            if let pose = c.update(time: t, acceleration: rest(roll: roll, tilt: 20)) { changes.append((t, pose)) }
        }
        #expect(changes.isEmpty, "\(changes)")
        #expect(c.orientation == before)
    }

    @Test("hysteresis: 60° from the old axis keeps it, 70° switches")
    func hysteresis() {
        var c = settled(in: 0)
        #expect(feed(&c, rest(roll: 60), from: 1, duration: 3, rate: 50).isEmpty)
        #expect(feed(&c, rest(roll: 70), from: 4, duration: 1, rate: 50).map(\.1) == [.landscapeLeft])
        // And back: 30° from portrait's axis is 60° from landscape-left's.
        #expect(feed(&c, rest(roll: 30), from: 5, duration: 3, rate: 50).isEmpty)
        #expect(feed(&c, rest(roll: 20), from: 8, duration: 1, rate: 50).map(\.1) == [.portrait])
    }

    @Test("at a steep tilt the in-plane direction is not trusted")
    func steepTilt() {
        var c = settled(in: 0, tilt: 60)
        var changes: [(Double, DeviceOrientation)] = []
        for i in 0..<500 {
            let t = 1 + Double(i) / 50
            if let pose = c.update(time: t, acceleration: rest(roll: Double(i) / 500 * 90, tilt: 70)) {
                changes.append((t, pose))
            }
        }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test("face-up has its own enter and exit angles")
    func faceHysteresis() {
        var c = settled(in: 0, tilt: 40)
        #expect(feed(&c, rest(roll: 0, tilt: 72), from: 1, duration: 2, rate: 50).isEmpty, "72° is not face-up yet")
        #expect(feed(&c, rest(roll: 0, tilt: 80), from: 3, duration: 1, rate: 50).map(\.1) == [.faceUp])
        #expect(feed(&c, rest(roll: 90, tilt: 68), from: 4, duration: 2, rate: 50).isEmpty, "68° is still face-up")
        #expect(feed(&c, rest(roll: 90, tilt: 50), from: 6, duration: 1, rate: 50).map(\.1) == [.landscapeLeft])
        #expect(feed(&c, rest(roll: 90, tilt: -85), from: 7, duration: 1, rate: 50).map(\.1) == [.faceDown])
        #expect(feed(&c, rest(roll: 0, tilt: 85), from: 8, duration: 1, rate: 50).map(\.1) == [.faceUp])
    }

    @Test("held steeply while walking, steps that tip it past face-enter-tilt for a quarter of a second never make it face-up")
    func steepWalk() {
        func walk(_ parameters: ClassifierParameters) -> [DeviceOrientation] {
            var c = OrientationClassifier(parameters: parameters)
            feed(&c, rest(roll: 0, tilt: 40), from: 0, duration: 1, rate: 50)
            feed(&c, rest(roll: 0, tilt: 70), from: 1, duration: 1, rate: 50)
            // Two steps a second, each tipping it from 70° to 81° for 0.24 s.
            var changes: [(Double, DeviceOrientation)] = []
            for step in 0..<20 {
                let t = 2 + Double(step) * 0.5
                changes += feed(&c, rest(roll: 0, tilt: 81), from: t, duration: 0.24, rate: 50)
                changes += feed(&c, rest(roll: 0, tilt: 70), from: t + 0.24, duration: 0.26, rate: 50)
            }
            return changes.map(\.1)
        }
        #expect(walk(ClassifierParameters()) == [])
        var off = ClassifierParameters()
        off.faceHoldTime = 0
        #expect(walk(off) == [.faceUp], "0 turns the longer hold off")
    }

    @Test("from upright, face-up after hold-time when laid flat, after face-hold-time at a tilt short of face-sure-tilt")
    func faceHold() throws {
        func faceUp(at tilt: Double) throws -> Double {
            var c = settled(in: 0, tilt: 40)
            let changes = feed(&c, rest(roll: 0, tilt: tilt), from: 1, duration: 1, rate: 50)
            #expect(changes.map(\.1) == [.faceUp], "at \(tilt)°")
            return try #require(changes.first).0 - 1
        }
        // The jump from 40° is a disturbance: settle-time, then the hold, and the filter's
        // few readings.
        let flat = try faceUp(at: 88)
        #expect(flat >= 0.22 && flat < 0.3, "laid flat: face-up \(flat) s after")
        let steep = try faceUp(at: 82)
        #expect(steep >= flat + 0.15 && steep < 0.5, "at 82°: face-up \(steep) s after")
        // Face-down alike, and from face-up to face-down (not from upright) at once.
        let down = try {
            var c = settled(in: 0, tilt: 40)
            return try #require(feed(&c, rest(roll: 0, tilt: -82), from: 1, duration: 1, rate: 50).first)
        }()
        #expect(down.1 == .faceDown && down.0 - 1 >= 0.3, "\(down)")
        var flipped = settled(in: 0, tilt: 85)
        #expect(flipped.orientation == .faceUp)
        let over = try #require(feed(&flipped, rest(roll: 0, tilt: -82), from: 1, duration: 1, rate: 50).first)
        #expect(over.1 == .faceDown && over.0 - 1 < 0.3, "\(over)")
    }

    @Test("picked up from a table: face-up straight to portrait, never through another pose")
    func pickUp() {
        var c = settled(in: 0, tilt: 90)
        #expect(c.orientation == .faceUp)
        var random = TestRandom(state: 9)
        var changes: [(Double, DeviceOrientation)] = []
        // 0.7 s lift and turn with a minimum-jerk profile; the hand adds up to ~4 m/s².
        for i in 0..<200 {
            let t = 1 + Double(i) / 100
            let s = min(Double(i) / 70, 1)
            let progress = s * s * s * (10 - 15 * s + 6 * s * s)
            let lift = 4 * sin(.pi * s) * (i < 70 ? 1 : 0)
            let roll = 30 * sin(.pi * s) + random.gaussian() * 3  // the hand twists on the way
            let a =
                rest(roll: roll, tilt: 90 - 70 * progress) + Vector3(0, -lift * 0.5, lift)
                + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.1
            if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
        }
        #expect(changes.map(\.1) == [.portrait])
    }

    @Test("lifted off a table and turned round in the hand: no flash through the poses it passes on the way back to the last one")
    func turnedRoundOffFlat() {
        func lift(_ parameters: ClassifierParameters) -> [DeviceOrientation] {
            var c = OrientationClassifier(parameters: parameters)
            feed(&c, rest(roll: 0, tilt: 90), from: 0, duration: 1, rate: 50)
            // Lifted by the far edge: upside-down for a quarter of a second, then round
            // to portrait, the pose the screen still shows.
            return
                (feed(&c, rest(roll: 180, tilt: 40), from: 1, duration: 0.26, rate: 50)
                + feed(&c, rest(roll: 0, tilt: 40), from: 1.26, duration: 1, rate: 50)).map(\.1)
        }
        #expect(lift(ClassifierParameters()) == [.portrait])
        var off = ClassifierParameters()
        off.flatSettleTime = 0
        #expect(lift(off) == [.portraitUpsideDown, .portrait], "0 turns the wait off")
    }

    @Test("from flat into a pose other than the last: reported flat-settle-time after it lay flat; back to the last one at once")
    func flatSettle() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 0, tilt: 90), from: 0, duration: 1, rate: 50)
        let landscape = feed(&c, rest(roll: 90, tilt: 40), from: 1, duration: 1, rate: 50)
        #expect(landscape.map(\.1) == [.landscapeLeft])
        // The first reading off flat is at 1.0 s (the filter takes a reading or two more).
        let late = try #require(landscape.first).0
        #expect(late >= 1.3 && late <= 1.4, "reported at \(late) s")

        feed(&c, rest(roll: 90, tilt: 90), from: 2, duration: 1, rate: 50)
        #expect(c.orientation == .faceUp)
        let back = feed(&c, rest(roll: 90, tilt: 40), from: 3, duration: 1, rate: 50)
        #expect(back.map(\.1) == [.landscapeLeft])
        let prompt = try #require(back.first).0
        // The jump is a disturbance too: settle-time, then hold-time, and no more.
        #expect(prompt <= 3.22 && prompt - 3 < late - 1, "the last upright pose again, at \(prompt) s")
    }

    @Test("from flat into a pose other than the last: also reported no sooner than flat-settle-time after the last jolt")
    func flatSettleAfterJolt() throws {
        func turned(_ parameters: ClassifierParameters) throws -> (Double, DeviceOrientation) {
            var c = OrientationClassifier(parameters: parameters)
            feed(&c, rest(roll: 0, tilt: 90), from: 0, duration: 1, rate: 50)
            // Lifted by the far edge (off flat at 1.0 s), then a jolt of the hand (25 m/s²
            // readings up to 1.28 s), then held in landscape-left.
            feed(&c, rest(roll: 180, tilt: 40), from: 1, duration: 0.2, rate: 50)
            feed(&c, rest(roll: 90, tilt: 40, magnitude: 25), from: 1.2, duration: 0.1, rate: 50)
            return try #require(feed(&c, rest(roll: 90, tilt: 40), from: 1.3, duration: 1, rate: 50).first)
        }
        let held = try turned(ClassifierParameters())
        #expect(held.1 == .landscapeLeft)
        #expect(held.0 >= 1.28 + 0.3 && held.0 <= 1.7, "reported at \(held.0) s")
        var off = ClassifierParameters()
        off.flatSettleTime = 0
        let prompt = try turned(off)
        // Then the turn itself, a disturbance too, with settle-time and hold-time.
        #expect(prompt.1 == .landscapeLeft && prompt.0 <= 1.52 && prompt.0 < held.0, "0 turns the wait off: \(prompt.0) s")
    }

    /// Readings at 50 Hz for `duration` s; with steps, one every 0.5 s lifts the
    /// magnitude 2.5 m/s² for 0.1 s (within magnitude-tolerance and the disturbance
    /// threshold: no disturbance, only a step).
    @discardableResult
    func walk(
        _ c: inout OrientationClassifier, roll: Double, tilt: Double, from start: Double, duration: Double, steps: Bool
    ) -> [(Double, DeviceOrientation)] {
        walk(&c, from: start, duration: duration, steps: steps) { _ in (roll, tilt) }
    }

    /// The same, the pose (roll, tilt) a function of the seconds since `start`.
    @discardableResult
    func walk(
        _ c: inout OrientationClassifier, from start: Double, duration: Double, steps: Bool,
        pose: (Double) -> (roll: Double, tilt: Double)
    ) -> [(Double, DeviceOrientation)] {
        var changes: [(Double, DeviceOrientation)] = []
        for i in 0..<Int(duration * 50) {
            let t = start + Double(i) / 50
            let lifted = steps && (t - start).truncatingRemainder(dividingBy: 0.5) < 0.1
            let (roll, tilt) = pose(t - start)
            let reading = rest(roll: roll, tilt: tilt, magnitude: g + (lifted ? 2.5 : 0))
            if let pose = c.update(time: t, acceleration: reading) { changes.append((t, pose)) }
        }
        return changes
    }

    @Test("walking with the device held nearly flat: back to the last upright pose after walking-return-time; standing, at once")
    func walkingReturn() throws {
        func back(_ parameters: ClassifierParameters, steps: Bool) throws -> Double {
            var c = OrientationClassifier(parameters: parameters)
            walk(&c, roll: 0, tilt: 40, from: 0, duration: 1, steps: steps)
            walk(&c, roll: 0, tilt: 88, from: 1, duration: 3, steps: steps)
            #expect(c.orientation == .faceUp)
            let changes = walk(&c, roll: 0, tilt: 40, from: 4, duration: 1.5, steps: steps)
            let first = try #require(changes.first)
            #expect(changes.map(\.1) == [.portrait])
            return first.0 - 4
        }
        let walking = try back(ClassifierParameters(), steps: true)
        #expect(walking >= 0.5 && walking <= 0.62, "back to portrait \(walking) s after the tilt, walking")
        let standing = try back(ClassifierParameters(), steps: false)
        #expect(standing <= 0.3, "standing: \(standing) s")
        var off = ClassifierParameters()
        off.walkingReturnTime = 0
        let prompt = try back(off, steps: true)
        #expect(prompt <= 0.3, "0 turns the wait off: \(prompt) s")
    }

    @Test("walking, a step that tips a steep grip past face-sure-tilt for 0.2 s makes nothing face-up; standing, or laid flat, it does")
    func walkingTipPastFaceSure() throws {
        // Held at 76° (short of face-enter-tilt), tipped to 88° for 0.2 s once a second.
        func tipped(_ parameters: ClassifierParameters, steps: Bool) -> [DeviceOrientation] {
            var c = OrientationClassifier(parameters: parameters)
            walk(&c, roll: 0, tilt: 40, from: 0, duration: 1, steps: steps)
            return walk(&c, from: 1, duration: 6, steps: steps) { s in
                (0, s.truncatingRemainder(dividingBy: 1) < 0.2 ? 88 : 76)
            }.map(\.1)
        }
        #expect(tipped(ClassifierParameters(), steps: true).isEmpty)
        #expect(tipped(ClassifierParameters(), steps: false).first == .faceUp, "standing, 88° is face-up after hold-time")
        var off = ClassifierParameters()
        off.faceHoldTime = 0
        #expect(tipped(off, steps: true).first == .faceUp, "0 turns the hold off")
        // Laid flat while walking: face-up after face-hold-time, not hold-time.
        var c = OrientationClassifier()
        walk(&c, roll: 0, tilt: 40, from: 0, duration: 2, steps: true)
        let flat = try #require(walk(&c, roll: 0, tilt: 89, from: 2, duration: 1, steps: true).first)
        #expect(flat.1 == .faceUp && flat.0 - 2 >= 0.3 && flat.0 - 2 < 0.5, "laid flat while walking: \(flat)")
    }

    @Test("off flat, another upright pose than the last needs as clear a direction as a turn from it; a diagonal goes back to the last")
    func offFlatAtDiagonal() throws {
        var c = settled(in: 0)
        feed(&c, rest(roll: 0, tilt: 90), from: 1, duration: 1, rate: 50)
        #expect(c.orientation == .faceUp)
        // 55° of roll: 35° from landscape-left's axis, within 45° − initial-margin but
        // not within 45° − rotation-hysteresis; the screen still shows portrait.
        let diagonal = feed(&c, rest(roll: 55, tilt: 40), from: 2, duration: 1, rate: 50)
        #expect(diagonal.map(\.1) == [.portrait])
        let turned = feed(&c, rest(roll: 75, tilt: 40), from: 3, duration: 1, rate: 50)
        #expect(turned.map(\.1) == [.landscapeLeft])
    }

    @Test("walking, a step that holds a flat-held device in another upright pose for a tenth of a second turns nothing; standing, it does")
    func walkingStepOffFlat() {
        func dipped(_ parameters: ClassifierParameters, steps: Bool) -> [DeviceOrientation] {
            var c = OrientationClassifier(parameters: parameters)
            walk(&c, roll: 0, tilt: 40, from: 0, duration: 1, steps: steps)
            walk(&c, roll: 0, tilt: 88, from: 1, duration: 2, steps: steps)
            // Held at 65°, between the face angles: face-up stays, and it lies flat no more.
            walk(&c, roll: 0, tilt: 65, from: 3, duration: 1, steps: steps)
            #expect(c.orientation == .faceUp)
            // One step rolls it to landscape-left at 40° and back within 0.6 s, smoothly
            // (no disturbance): in landscape's zone (a roll over 65° below 55° of tilt)
            // for about 0.17 s, past hold-time but short of flat-settle-time.
            return walk(&c, from: 4, duration: 1.6, steps: steps) { s in
                let f = max(0, 1 - abs(s - 0.3) / 0.3)
                return (90 * f, 65 - 25 * f)
            }.map(\.1)
        }
        #expect(dipped(ClassifierParameters(), steps: true).isEmpty)
        #expect(dipped(ClassifierParameters(), steps: false) == [.landscapeLeft], "standing, the turn is taken")
        var off = ClassifierParameters()
        off.flatSettleTime = 0
        #expect(dipped(off, steps: true) == [.landscapeLeft], "0 turns the wait off")
    }

    @Test("after a pause in the readings (a sensor that watches at rest), the flat stretch ends at the first reading that is not flat")
    func flatSettleAfterPause() throws {
        var c = OrientationClassifier()
        feed(&c, rest(roll: 0, tilt: 90), from: 0, duration: 1, rate: 50)
        // Nothing for 5 s (over gap-reset), then the first reading is already upright.
        let turned = feed(&c, rest(roll: 90, tilt: 40), from: 6, duration: 1, rate: 50)
        let first = try #require(turned.first)
        #expect(first.1 == .landscapeLeft)
        #expect(first.0 >= 6.3 && first.0 <= 6.4, "reported at \(first.0) s")
    }

    @Test("shaking never decides; once held still it does, promptly")
    func shaking() throws {
        var c = settled(in: 0)
        var random = TestRandom(state: 13)
        var changes: [(Double, DeviceOrientation)] = []
        for i in 0..<300 {
            let t = 1 + Double(i) / 100
            let shake = 15 * sin(2 * .pi * 4 * t)
            let a = rest(roll: 90 + random.gaussian() * 20) + Vector3(shake, shake * 0.5, shake * 0.3)
            if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
        }
        #expect(changes.isEmpty, "\(changes)")
        let after = feed(&c, rest(roll: 90, tilt: 10), from: 4, duration: 2, rate: 100)
        let change = try #require(after.first)
        #expect(change.1 == .landscapeLeft)
        #expect(change.0 - 4 <= 0.3)
    }

    @Test("a long gap restarts the filter and forgets a pending change; the pose stays")
    func gapReset() {
        var c = settled(in: 0)
        feed(&c, rest(roll: 90), from: 1, duration: 0.1, rate: 50)  // pending, not yet held
        #expect(c.orientation == .portrait)
        #expect(c.update(time: 3.5, acceleration: rest(roll: 90)) == nil, "held only across the gap")
        #expect(c.orientation == .portrait)
        let changes = feed(&c, rest(roll: 90), from: 3.52, duration: 1, rate: 50)
        #expect(changes.map(\.1) == [.landscapeLeft])
        #expect(changes[0].0 >= 3.5 + ClassifierParameters().holdTime - 1e-9)
    }

    @Test("repeated timestamps do not count as agreeing readings; time going back restarts")
    func timestamps() {
        var p = ClassifierParameters()
        p.initialHoldTime = 0
        p.holdTime = 0
        p.settleTime = 0
        var c = OrientationClassifier(parameters: p)
        #expect(c.update(time: 1, acceleration: rest(roll: 0)) == nil)
        #expect(c.update(time: 1, acceleration: rest(roll: 0)) == nil, "the same time again")
        #expect(c.update(time: 1.1, acceleration: rest(roll: 0)) == .portrait)
        #expect(c.update(time: 1.2, acceleration: rest(roll: 180)) == nil)
        #expect(c.update(time: 0.5, acceleration: rest(roll: 180)) == nil, "back in time: restart")
        #expect(c.update(time: 0.6, acceleration: rest(roll: 180)) == .portraitUpsideDown)
    }

    @Test("parameters are validated with the parameter's name")
    func validation() {
        var p = ClassifierParameters()
        p.faceExitTilt = 80
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate() }
        do {
            try p.validate()
        } catch {
            #expect(error.name == "face-exit-tilt")
        }
        p = ClassifierParameters()
        p.holdTime = -1
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate() }
        p = ClassifierParameters()
        p.rotationHysteresis = 45
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate() }
        p = ClassifierParameters()
        p.filterTimeConstant = .nan
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate() }
        #expect(throws: Never.self) { try ClassifierParameters().validate() }
        p = ClassifierParameters()
        p.vibrationFilter = -0.1
        #expect(throws: ClassifierParameters.InvalidParameter.self) { try p.validate() }
        p = ClassifierParameters()
        p.faceSureTilt = 91
        #expect(throws: ClassifierParameters.InvalidParameter(name: "face-sure-tilt", message: "must be at most 90 degrees, got 91")) {
            try p.validate()
        }
    }

    /// Readings of a device in `roll`, each pushed `amplitude` m/s² off gravity by a
    /// vibration at `frequency` Hz (a force turning in the y–z plane, as a motor's), seen
    /// at `rate` Hz without averaging.
    func vibrating(
        _ c: inout OrientationClassifier, roll: Double, amplitude: Double, frequency: Double, from start: Double,
        duration: Double, rate: Double = 100
    ) -> [(Double, DeviceOrientation)] {
        var changes: [(Double, DeviceOrientation)] = []
        for i in 0..<Int((duration * rate).rounded()) {
            let t = start + Double(i) / rate
            let phase = 2 * Double.pi * frequency * t
            let a = rest(roll: roll, tilt: 10) + Vector3(0, amplitude * cos(phase), amplitude * sin(phase))
            if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
        }
        return changes
    }

    @Test("under a steady vibration that takes every reading 5 m/s² off gravity, turns are still followed")
    func steadyVibration() throws {
        var c = OrientationClassifier()
        let first = vibrating(&c, roll: 0, amplitude: 5, frequency: 170, from: 0, duration: 2)
        #expect(first.map(\.1) == [.portrait])
        let turn = vibrating(&c, roll: 90, amplitude: 5, frequency: 170, from: 2, duration: 2)
        let change = try #require(turn.first)
        #expect(turn.map(\.1) == [.landscapeLeft])
        #expect(change.0 - 2 <= 0.3, "as quick as on a still table: \(change.0 - 2) s")

        // Without the vibration filter every reading is a disturbance: nothing, ever.
        var p = ClassifierParameters()
        p.vibrationFilter = 0
        var unfiltered = OrientationClassifier(parameters: p)
        #expect(vibrating(&unfiltered, roll: 0, amplitude: 5, frequency: 170, from: 0, duration: 4).isEmpty)
    }

    @Test("the vibration filter lets no tap through: a 30 m/s² jolt, at 50 Hz and at 1 kHz, changes nothing")
    func tapsThroughTheVibrationFilter() {
        for rate in [50.0, 1000] {
            var c = settled(in: 0, rate: rate)
            var changes: [(Double, DeviceOrientation)] = []
            // A tap into the screen lasting 10 ms, pointing the reading at landscape-right.
            for i in 0..<Int(rate) {
                let t = 1 + Double(i) / rate
                let tapping = t < 1.01 + 1e-9
                let a = tapping ? Vector3(30, -g, 0) : rest(roll: 0)
                if let pose = c.update(time: t, acceleration: a) { changes.append((t, pose)) }
            }
            #expect(changes.isEmpty, "at \(rate) Hz: \(changes)")
        }
    }
}

@Suite("Units check")
struct UnitsCheckTests {
    @Test("says once that readings in counts or g are not m/s², and nothing for gravity")
    func units() {
        var counts = UnitsCheck(window: 10)
        var messages = (0..<30).compactMap { _ in counts.check(Vector3(0, -1024, 0)) }
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("readings are about 1024.000 m/s² (104.419 g), not gravity") == true)
        var inG = UnitsCheck(window: 10)
        messages = (0..<30).compactMap { _ in inG.check(Vector3(0, -1, 0.05)) }
        #expect(messages.first?.contains("(0.102 g)") == true)
        var fine = UnitsCheck(window: 10)
        #expect((0..<30).compactMap { i in fine.check(Vector3(0, -9.8 + Double(i % 3), 0.3)) }.isEmpty)
    }
}
