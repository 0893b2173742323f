/// Something going on around or to the device that adds to what its accelerometer reads:
/// walking, a bus ride, a finger tapping, a trembling hand.
///
/// Each activity is built once from the seed (its random events drawn up front) and is
/// then a pure function of time, so a sample can be computed at any instant, in any
/// order, as often as the sensor's filter needs.
protocol Activity: Sendable {
    /// The span outside which the activity contributes nothing, tails included.
    var activeStart: Double { get }
    var activeEnd: Double { get }
    func contribute(at t: Double, into effect: inout ActivityEffect)
}
