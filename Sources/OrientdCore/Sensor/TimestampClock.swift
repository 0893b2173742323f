/// Maps a buffer's timestamp channel (nanoseconds on the device's clock, which may be
/// the realtime clock) onto the run's monotonic seconds: the first timestamp is pinned to
/// its arrival and later ones keep the device's spacing, so jitter in delivery does not
/// become jitter in time. A jump of over a second (a clock change) pins it again, and
/// time never runs back: a timestamp before the last one pins it at the later of the two.
public struct TimestampClock: Sendable {
    private var anchor: (device: Int64, run: Double)?
    private var last = -Double.infinity

    public init() {}

    /// The run's time of a scan stamped `nanoseconds` on the device's clock that arrived
    /// at `arrival` (the run's monotonic seconds).
    public mutating func time(nanoseconds: Int64, arrival: Double) -> Double {
        if let anchor {
            let t = anchor.run + Double(nanoseconds &- anchor.device) / 1e9
            if abs(t - arrival) <= 1, t >= last {
                last = t
                return t
            }
        }
        anchor = (nanoseconds, arrival)
        last = max(last, arrival)
        return last
    }
}
