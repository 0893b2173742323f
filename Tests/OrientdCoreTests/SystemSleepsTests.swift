import Testing

@testable import OrientdCore

@Suite("A suspend, from the time spent suspended")
struct SystemSleepsTests {
    /// What `slept` said at each look, in order, from a fresh watch.
    func looks(_ suspended: [Double]) -> [Bool] {
        var sleeps = SystemSleeps()
        return suspended.map { sleeps.slept(suspended: $0) }
    }

    @Test("the first look takes note; growth of half a second or more since the last look is a sleep, less is not")
    func sleeps() {
        // Two clocks read a moment apart differ by microseconds; then a 21 s suspend and
        // the looks after it.
        #expect(looks([120, 120, 120.000_3, 120.4, 141.4, 141.4, 141.9]) == [false, false, false, false, true, false, true])
    }

    @Test("the reference moves at every look: short growths never add up to a sleep")
    func shortGrowthsDoNotAddUp() {
        #expect(looks((0...10).map { Double($0) * 0.3 }) == Array(repeating: false, count: 11))
    }
}
