/// The rate a sensor is read at right now, as `status` shows it: the adaptive rate's
/// pace and, when known, the samples a second it brings.
public struct ReadingRate: Hashable, Sendable {
    public var pace: AdaptiveRate.Pace
    /// Hz: the poll rate, or the rate a buffered sensor sends at; nil when unknown (a
    /// replay at the full rate: the recording's own).
    public var hz: Double?

    public init(pace: AdaptiveRate.Pace, hz: Double?) {
        self.pace = pace
        self.hz = hz
    }
}
