import Glibc
import Testing

@testable import OrientdCore

/// The hinge angle and the mode it implies, from plain readings in the frame README's
/// "Layers" gives: both frames coincide at 180°, the hinge along x.
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

    @Test("README's example: a base flat and a display at 100° read (0, 0, g) and (0, −g·sin 80°, g·cos 80°)")
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

    @Test("unwrapped against the last angle: folding through 360° does not jump to 0°")
    func unwrapping() {
        #expect(HingeAngle.unwrapped(3, previous: 355) == 360)
        #expect(HingeAngle.unwrapped(358, previous: 4) == 0)
        #expect(HingeAngle.unwrapped(190, previous: 170) == 190)
        #expect(HingeAngle.unwrapped(3, previous: nil) == 3)
    }

    @Test("laptop, tablet, tent and stand; hysteresis around the threshold; the mode holds while undefined")
    func modes() {
        var tracker = HingeTracker()
        func step(_ degrees: Double, roll: Double = 0) -> DeviceMode? {
            let (base, display) = readings(degrees, roll: roll)
            return tracker.update(base: base, display: display)
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
}
