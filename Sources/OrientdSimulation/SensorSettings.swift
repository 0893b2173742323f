import OrientdCore

/// The simulated accelerometer and how it is read out: everything in a scenario's header
/// that is about the part rather than about what the device does.
struct SensorSettings: Sendable, Hashable {
    /// How each output sample relates to the continuous signal.
    enum Filter: String, Sendable, Hashable {
        /// The mean over the sample period, like the decimation filter of most parts
        /// (bandwidth about half the output rate): short jolts are smeared, not missed.
        case average
        /// The instantaneous value (a part set to a wide bandwidth): short jolts appear
        /// at full height in one sample, or not at all.
        case none
    }

    /// A per-axis calibration error: drawn from the seed, or given.
    enum PerAxis: Sendable, Hashable {
        /// Each axis gets a random sign and a magnitude between 30 % and 100 % of this.
        case random(Double)
        case fixed(Vector3)
    }

    /// Samples per second, 1…1000.
    var rate: Double = 50
    /// The sensor's mounting, written to the recording; nil writes no `mount-matrix` line.
    var mountMatrix: MountMatrix?
    /// Written to the recording as `natural:` when given (docs/events.md, "Axes and names").
    var natural: NaturalOrientation?
    /// White noise, standard deviation per axis, m/s².
    var noise: Double = 0.04
    /// Zero-g offset per raw axis, m/s².
    var bias: PerAxis = .random(0.25)
    /// Sensitivity error per raw axis, as a fraction (0.02 = 2 %).
    var scaleError: PerAxis = .random(0.02)
    /// Quantisation step, m/s²; 0 for none. 0.0096 is one LSB of a 12-bit ±2 g part
    /// (and about one of a 14-bit ±8 g part).
    var lsb: Double = 0.0096
    /// Full scale: readings clip at ±range, m/s².
    var range: Double = 8 * standardGravity
    /// Standard deviation of the sample times around their nominal grid, seconds.
    var jitter: Double = 0
    /// Chance that a sample is lost.
    var drop: Double = 0
    /// Chance that a sample is followed by a second one with the same timestamp.
    var duplicate: Double = 0
    var filter: Filter = .average
    /// Where the wrist is, seen from the sensor, in the device frame (metres): the pivot
    /// of every turn of the hand unless a step gives its own.
    var pivot = Vector3(0, 0.05, -0.05)
}
