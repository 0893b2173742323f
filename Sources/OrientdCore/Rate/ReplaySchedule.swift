/// Which of a recording's samples the live daemon would have read, and how: the adaptive
/// rate's schedule, made afresh at each header, resting as a sensor that watches for
/// motion would when the header says the sensor offered a change sensitivity (or
/// `watchingSensor` says so). Replay, evaluate and the tests play a recording through
/// this into an `OrientationService` (`take(_:as:)`), so they cannot disagree.
public struct ReplaySchedule: Sendable {
    public let parameters: AdaptiveRateParameters
    public let watchingSensor: Bool
    public private(set) var rate: AdaptiveRate

    public init(parameters: AdaptiveRateParameters = AdaptiveRateParameters(), watchingSensor: Bool = false) {
        self.parameters = parameters
        self.watchingSensor = watchingSensor
        rate = AdaptiveRate(parameters: parameters, sensorWatches: watchingSensor)
    }

    /// A header starts the schedule again, for the sensor it describes.
    public mutating func start(_ header: RecordingHeader) {
        rate = AdaptiveRate(parameters: parameters, sensorWatches: watchingSensor || header.offersChangeSensitivity)
    }

    /// What the live daemon would have done with `sample`.
    public mutating func admit(_ sample: Sample) -> AdaptiveRate.Decision { rate.admit(sample) }

    /// Whether the schedule is at the full rate, at rest, or watching.
    public var pace: AdaptiveRate.Pace { rate.pace }
}
