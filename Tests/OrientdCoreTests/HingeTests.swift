import Glibc
import Testing

@testable import OrientdCore

/// The hinge angle and the mode it implies, from plain readings in the frame docs/layers.md
/// gives under "Layers": both frames coincide at 180°, the hinge along x.
@Suite("Hinge angle between a base and a display accelerometer")
struct HingeTests {
    let g = standardGravity

    /// The base's reading lying flat, and the display's with the lid opened to `degrees`,
    /// the whole machine tilted by `pitch` about the hinge (a laptop on a lap) and `roll`
    /// about the other horizontal axis (the hinge towards vertical).
    func readings(_ degrees: Double, pitch: Double = 0, roll: Double = 0) -> (base: Vector3, display: Vector3) {
        func reading(turned: Double) -> Vector3 {
            let a = turned * .pi / 180
            let r = roll * .pi / 180
            // Gravity in a frame turned by `a` about x, then the hinge tilted by `r`.
            return Vector3(g * sin(r), -g * cos(r) * sin(a), g * cos(r) * cos(a))
        }
        return (reading(turned: pitch), reading(turned: pitch + 180 - degrees))
    }

    @Test("the angle from closed to folded back, on a desk and tilted about the hinge", arguments: [0.0, 35, -60])
    func angles(pitch: Double) throws {
        for degrees in stride(from: 10.0, through: 350, by: 20) {
            let (base, display) = readings(degrees, pitch: pitch)
            let angle = try #require(HingeAngle.degrees(base: base, display: display))
            #expect(abs(angle - degrees) < 1e-6, "\(degrees)° at pitch \(pitch)")
        }
    }

    @Test("docs/layers.md's example: a base flat and a display at 100° read (0, 0, g) and (0, −g·sin 80°, g·cos 80°)")
    func readmeExample() throws {
        let display = Vector3(0, -g * sin(80 * .pi / 180), g * cos(80 * .pi / 180))
        let angle = try #require(HingeAngle.degrees(base: Vector3(0, 0, g), display: display))
        #expect(abs(angle - 100) < 1e-9)
    }

    @Test("undefined while the hinge is near vertical or a body is moving")
    func undefined() {
        let upright = readings(120, roll: 70)
        #expect(HingeAngle.degrees(base: upright.base, display: upright.display) == nil)
        let leaning = readings(120, roll: 50)
        #expect(HingeAngle.degrees(base: leaning.base, display: leaning.display) != nil)
        let (base, display) = readings(120)
        #expect(HingeAngle.degrees(base: base * 1.3, display: display) == nil, "the base is being moved")
        #expect(HingeAngle.degrees(base: base, display: display * 0.7) == nil, "the display is being moved")
    }

    @Test("unwrapped against the last angle near the seam: folding through 360° does not jump to 0°")
    func unwrapping() {
        #expect(HingeAngle.unwrapped(3, previous: 355) == 360)
        #expect(HingeAngle.unwrapped(358, previous: 4) == 0)
        #expect(HingeAngle.unwrapped(190, previous: 170) == 190)
        #expect(HingeAngle.unwrapped(3, previous: nil) == 3)
        #expect(HingeAngle.unwrapped(94, previous: 300) == 94, "away from the seam a reading is what it is")
    }

    @Test("laptop, tablet, tent and stand; hysteresis around the threshold; the mode holds while undefined")
    func modes() {
        var tracker = HingeTracker()
        // Two readings a step, as a sensor gives many: a jump is believed on the second.
        func step(_ degrees: Double, roll: Double = 0) -> DeviceMode? {
            let (base, display) = readings(degrees, roll: roll)
            let first = tracker.update(base: base, display: display)
            return tracker.update(base: base, display: display) ?? first
        }
        #expect(step(110) == .laptop, "the first angle sets the mode")
        #expect(step(195) == nil, "past 180 but not 200: still a laptop")
        #expect(step(205) == .tablet, "stand")
        #expect(step(190) == nil, "hysteresis: not back to laptop above 185")
        #expect(step(300) == nil, "tent")
        #expect(step(355) == nil)
        #expect(step(2) == nil, "folded flat back, read as 2° but unwrapped to 360°")
        #expect(tracker.angle == 360)
        #expect(step(200, roll: 80) == nil, "hinge upright: undefined")
        #expect(tracker.angle == nil)
        #expect(tracker.mode == .tablet, "the mode holds")
        #expect(step(340) == nil)
        #expect(step(180) == .laptop)
    }

    @Test("a first angle near closed or folded flat gives no mode until the hinge leaves that zone")
    func ambiguousStart() {
        var tracker = HingeTracker()
        let folded = readings(355)
        #expect(tracker.update(base: folded.base, display: folded.display) == nil)
        #expect(tracker.mode == nil, "355° and 5° read alike; neither is assumed")
        #expect(tracker.angle.map { abs($0 - 355) < 1e-6 } == true, "the angle is still reported")
        let tent = readings(300)
        #expect(tracker.update(base: tent.base, display: tent.display) == .tablet)
        let flat = readings(2)
        #expect(tracker.update(base: flat.base, display: flat.display) == nil)
        #expect(tracker.update(base: flat.base, display: flat.display) == nil)
        #expect(tracker.angle == 360, "once followed, folding flat is 360°")
    }

    @Test("a jump is believed only when the next reading agrees: one stale pair does not flip the mode")
    func jumps() {
        var tracker = HingeTracker()
        let tent = readings(300)
        #expect(tracker.update(base: tent.base, display: tent.display) == .tablet)
        // Folded on to 355° within one reading: the display's new reading paired with the
        // base's from before reads about 175°.
        let folded = readings(355, pitch: 180)
        #expect(tracker.update(base: tent.base, display: folded.display) == nil)
        #expect(tracker.mode == .tablet, "one stale pair is not believed")
        #expect(tracker.angle.map { abs($0 - 300) < 1e-6 } == true, "the angle stays the last believed")
        #expect(tracker.update(base: folded.base, display: folded.display) == nil, "a second jump, not agreeing with the first")
        #expect(tracker.update(base: folded.base, display: folded.display) == nil, "agreed: believed, and still tablet")
        #expect(tracker.angle.map { abs($0 - 355) < 1e-6 } == true)
        let laptop = readings(110)
        #expect(tracker.update(base: laptop.base, display: laptop.display) == nil)
        #expect(tracker.update(base: laptop.base, display: laptop.display) == .laptop, "a real jump (carried, then opened) is taken")
    }

    @Test("a quick fold: the display's new readings paired with one base reading from before are not believed, however many agree")
    func staleBase() {
        var tracker = HingeTracker()
        // Tent, as the umockdev convertible test poses it: the base on its edge.
        let tent = readings(300, pitch: 240)
        tracker.base(tent.base, at: 1.0)
        #expect(tracker.display(tent.display, at: 1.02) == .tablet)
        // Folded flat within a reading; the base, read at its rest rate, last read at 1.9.
        tracker.base(tent.base, at: 1.9)
        let folded = readings(355, pitch: 180)
        for t in [2.0, 2.02, 2.04, 2.06] {
            #expect(tracker.display(folded.display, at: t) == nil, "paired with the base from before: 55°, not believed")
        }
        #expect(tracker.angle.map { abs($0 - 300) < 1e-6 } == true, "the angle stays the last believed")
        tracker.base(folded.base, at: 2.1)
        #expect(tracker.display(folded.display, at: 2.12) == nil, "the real angle, a jump from 300°")
        #expect(tracker.display(folded.display, at: 2.14) == nil, "the same base reading does not confirm it")
        tracker.base(folded.base, at: 2.3)
        #expect(tracker.display(folded.display, at: 2.32) == nil, "confirmed by another base reading; still tablet")
        #expect(tracker.mode == .tablet)
        #expect(tracker.angle.map { abs($0 - 355) < 1e-6 } == true, "355°, not 0°: the fold was followed")
    }

    @Test("a display reading is paired with the latest base reading only while it is recent")
    func pairing() {
        var tracker = HingeTracker()
        let (base, display) = readings(120)
        #expect(tracker.display(display, at: 1) == nil, "no base reading yet")
        #expect(tracker.angle == nil)
        tracker.base(base, at: 1.0)
        #expect(tracker.display(display, at: 1.1) == .laptop)
        #expect(tracker.angle.map { abs($0 - 120) < 1e-6 } == true)
        #expect(tracker.display(display, at: 1.0 + HingeTracker.pairingWindow + 0.01) == nil, "the base reading is stale")
        #expect(tracker.angle == nil)
        #expect(tracker.mode == .laptop, "the mode holds")
        tracker.forgetBase()
        #expect(tracker.mode == nil && tracker.angle == nil, "the base sensor is gone")
    }

    @Test("a base that watches for motion sends nothing while still: its latest reading is paired however old, until it stops watching")
    func watchingBase() {
        var tracker = HingeTracker()
        let laptop = readings(120)
        let tablet = readings(300)
        tracker.base(laptop.base, at: 1.0)
        tracker.baseWatching(true)
        #expect(tracker.display(laptop.display, at: 1.1) == .laptop)
        // A minute later the display folds back; the base has sent nothing since.
        #expect(tracker.display(tablet.display, at: 61) == nil, "a jump waits for the next reading")
        #expect(tracker.display(tablet.display, at: 61.02) == .tablet)
        tracker.baseWatching(false)
        #expect(tracker.display(tablet.display, at: 62) == nil, "no longer watching: the base reading is stale")
        #expect(tracker.angle == nil)
        tracker.baseWatching(true)
        tracker.forgetBase()
        #expect(!tracker.baseWatches, "a new base starts at the full rate")
    }
}

@Suite("Tablet-mode switches together")
struct SwitchStatesTests {
    @Test("no switch says nothing; tablet while any says tablet; a switch gone no longer counts")
    func combined() {
        var switches = SwitchStates()
        #expect(switches.mode == nil)
        switches.set("event7", .laptop)
        #expect(switches.mode == .laptop)
        switches.set("event3", .tablet)
        #expect(switches.mode == .tablet)
        #expect(switches.devices == ["event3", "event7"])
        switches.set("event3", nil)
        #expect(switches.mode == .laptop)
        switches.set("event7", nil)
        #expect(switches.mode == nil)
    }
}
