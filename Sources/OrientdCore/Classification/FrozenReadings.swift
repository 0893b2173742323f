/// Notices a sensor whose values stopped updating: every reading exactly the same, to the
/// last bit, for `hold` seconds and `readings` readings at least. A real accelerometer's
/// readings move by a count or more with noise even lying still (three axes of 10 to 16
/// bits), so a run that long is a chip that lost its settings or power while its driver
/// reads registers nothing fills any more, or a hub repeating one value. Said once when
/// the run has lasted that long, and once when a reading differs: no turn can be seen
/// meanwhile. Readings all zero or saturated are `ImplausibleReadings`' to say.
public struct FrozenReadings: Sendable {
    public enum Report: Equatable, Sendable {
        /// Every reading since `since` (seconds) has been `reading`, `count` of them so far.
        case began(reading: Vector3, since: Double, count: Int)
        /// A reading differs at `at`, after `lasting` seconds of the same one.
        case ended(at: Double, lasting: Double)
    }

    /// At the rest rate (2 readings a second) 20 readings take 10 s; at full rate the
    /// 10 s decide. Measured: the bundled and real recordings held as each I2C chip's
    /// counts (bma250e's 7.8 mg the coarsest) repeat one reading for 0.4 s (3 readings)
    /// at most.
    public static let defaultHold = 10.0
    public static let defaultReadings = 20
    public let hold: Double
    public let readings: Int
    /// The value of the run going on, since when, and how many readings it has.
    private var run: (value: Vector3, since: Double, count: Int)?
    /// Whether this run has been said.
    public private(set) var isFrozen = false

    public init(hold: Double = defaultHold, readings: Int = defaultReadings) {
        self.hold = hold
        self.readings = readings
    }

    /// Feeds one reading (after calibration); a report when an episode begins or ends.
    /// Inlined: every reading passes, and called it cost a call's 30 instructions.
    @inline(__always)
    public mutating func check(_ sample: Sample) -> Report? {
        let a = sample.acceleration
        guard let current = run, current.value == a else {
            defer {
                run = (a, sample.time, 1)
                isFrozen = false
            }
            guard isFrozen, let current = run else { return nil }
            return .ended(at: sample.time, lasting: sample.time - current.since)
        }
        run = (a, current.since, current.count + 1)
        guard !isFrozen, current.count + 1 >= readings, sample.time - current.since >= hold,
            ImplausibleReadings.kind(of: a) == nil
        else { return nil }
        isFrozen = true
        return .began(reading: a, since: current.since, count: current.count + 1)
    }

    /// The report in words, naming `device`.
    public static func message(_ report: Report, device: String) -> String {
        switch report {
        case .began(let a, let since, let count):
            let values = [a.x, a.y, a.z].map { JSONLineWriter.number($0, decimals: 3) }.joined(separator: ", ")
            return "\(device): its values are not updating: every reading since \(JSONLineWriter.number(since, decimals: 1)) s "
                + "(\(count) of them) has been (\(values)) m/s² to the last bit, where a real sensor's values move with noise (a chip "
                + "that lost its settings or power, a hub repeating one value); no turn can be seen until they change"
        case .ended(_, let lasting):
            return "\(device): its values change again, after \(JSONLineWriter.number(lasting, decimals: 1)) s of one reading"
        }
    }
}
