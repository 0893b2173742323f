/// How strongly an activity acts over time: 0 before it, rising to 1, falling back to 0.
///
/// People do not start walking or a bus does not start turning at full strength in one
/// sample, and a step in amplitude would itself be a spurious jolt, so every activity
/// fades in and out along a minimum-jerk ramp. An activity already going on when the
/// recording starts (or still going when it ends) has no ramp on that side.
struct Envelope: Sendable, Hashable {
    var start: Double
    var end: Double
    var rampIn: Double
    var rampOut: Double

    init(start: Double, end: Double, rampIn: Double, rampOut: Double) {
        self.start = start
        self.end = end
        self.rampIn = rampIn
        self.rampOut = rampOut
    }

    /// The usual envelope of an activity over [start, end]: ramps of `ramp` seconds, but
    /// never more than a quarter of the activity each, and none at the recording's edges.
    init(start: Double, end: Double, ramp: Double, atRecordingStart: Bool, atRecordingEnd: Bool) {
        let limit = min(ramp, (end - start) / 4)
        self.init(start: start, end: end, rampIn: atRecordingStart ? 0 : limit, rampOut: atRecordingEnd ? 0 : limit)
    }

    func value(at t: Double) -> Double {
        guard t >= start, t <= end else { return 0 }
        var v = 1.0
        if rampIn > 0, t < start + rampIn { v = MinimumJerk.position((t - start) / rampIn) }
        if rampOut > 0, t > end - rampOut { v = min(v, MinimumJerk.position((end - t) / rampOut)) }
        return v
    }
}
