import OrientdCore
import Testing

@Suite("Walking steps from the readings' magnitude")
struct WalkingStepsTests {
    /// Feeds a rise past the threshold at each of `times` (one reading 2 m/s² over g,
    /// then one at g 20 ms later).
    static func steps(_ times: [Double]) -> WalkingSteps {
        var steps = WalkingSteps()
        for t in times {
            steps.update(time: t, magnitudeSquared: (standardGravity + 2) * (standardGravity + 2))
            steps.update(time: t + 0.02, magnitudeSquared: standardGravity * standardGravity)
        }
        return steps
    }

    @Test("four rises within 2 s are a walk, until 2 s after the oldest of the last four")
    func four() {
        let steps = Self.steps([0, 0.5, 1, 1.5])
        #expect(steps.isWalking(at: 1.6))
        #expect(steps.isWalking(at: 2.0))
        #expect(!steps.isWalking(at: 2.01))
        #expect(!Self.steps([0, 0.5, 1]).isWalking(at: 1.1), "three are not")
        #expect(!Self.steps([0, 0.9, 1.8, 2.7]).isWalking(at: 2.8), "four over 2.7 s are not")
    }

    @Test("a fall below g by the threshold is a step too; rises closer than 0.25 s count once")
    func risesAndFalls() {
        var falls = WalkingSteps()
        for t in [0, 0.4, 0.8, 1.2] {
            falls.update(time: t, magnitudeSquared: 8 * 8)
            falls.update(time: t + 0.02, magnitudeSquared: standardGravity * standardGravity)
        }
        #expect(falls.isWalking(at: 1.3))
        // A step's bounce crossing twice, 0.1 s apart: two steps, not four.
        #expect(!Self.steps([0, 0.1, 0.6, 0.7]).isWalking(at: 0.8))
    }

    @Test("staying above the threshold is one rise; a reset forgets every step")
    func heldAndReset() {
        var held = WalkingSteps()
        for i in 0..<100 { held.update(time: Double(i) * 0.02, magnitudeSquared: 12 * 12) }
        #expect(!held.isWalking(at: 2))
        var steps = Self.steps([0, 0.5, 1, 1.5])
        steps.reset()
        #expect(!steps.isWalking(at: 1.6))
    }
}
