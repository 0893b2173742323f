/// How `AdaptiveRate` paces the reading of the accelerometer, with the defaults
/// docs/classifier.md, "Quiet when still", derives from the recordings.
public struct AdaptiveRateParameters: Hashable, Sendable {
    /// Off (`--full-rate`): every sample the source gives is read, as before the adaptive
    /// rate existed.
    public var enabled = true

    /// Hz while the device is still: one reading every 1/restRate s. Each reading is a
    /// wake-up of the CPU on the polled path, so this is the still device's wake-ups per
    /// second; its interval is also the longest a turn can go unnoticed.
    public var restRate: Double = 2

    /// m/s²: a reading this far from the last reading that counted as motion (or, at
    /// rest, from the one the rest began with) is motion, and brings the full rate back.
    /// Above the noise of a still sensor (a few hundredths to a few tenths), below the
    /// change a small turn makes (1 m/s² is about 6°).
    public var motionThreshold: Double = 0.6

    /// Seconds without motion before the rate drops to `restRate`: longer than the
    /// classifier needs to confirm a pose after the motion ends (settle and hold time),
    /// so a turn is always decided at the full rate.
    public var restAfter: Double = 1.5

    /// m/s², per axis: the change sensitivity given at rest to a sensor that offers one
    /// (a HID sensor hub's `in_accel_hysteresis`), which then sends a sample only when an
    /// axis has moved by more than this since the last one it sent, and wakes the CPU for
    /// nothing else; 0 leaves it unset, and the rest rate paces the readings. The motion
    /// threshold: the sensor sends what the adaptive rate would count as motion, and
    /// little else (docs/classifier.md has the figures).
    public var changeSensitivity: Double = 0.6

    public init() {}

    /// Off: every sample is read (`--full-rate`, `orientd record`).
    public static var off: AdaptiveRateParameters {
        var p = AdaptiveRateParameters()
        p.enabled = false
        return p
    }

    /// The interval between readings at rest, seconds.
    public var restInterval: Double { 1 / restRate }

    /// Every value with the name it has as a flag and in the configuration file.
    public var named: [(name: String, value: Double)] {
        [
            ("rest-rate", restRate), ("motion-threshold", motionThreshold), ("rest-after", restAfter),
            ("change-sensitivity", changeSensitivity),
        ]
    }

    /// Checks the values, and that a turn is decided before the rate drops.
    public func validate(against classifier: ClassifierParameters) throws(ClassifierParameters.InvalidParameter) {
        func check(_ ok: Bool, _ name: String, _ message: String) throws(ClassifierParameters.InvalidParameter) {
            if !ok { throw ClassifierParameters.InvalidParameter(name: name, message: message) }
        }
        for (name, value) in named where name != "change-sensitivity" {
            try check(value.isFinite && value > 0, name, "must be a finite number > 0, got \(value)")
        }
        try check(
            changeSensitivity.isFinite && changeSensitivity >= 0, "change-sensitivity",
            "must be a finite number ≥ 0 (0: not used), got \(changeSensitivity)")
        try check(
            restAfter >= classifier.settleTime + classifier.holdTime, "rest-after",
            "must be at least settle-time + hold-time (\(classifier.settleTime + classifier.holdTime) s), so a turn is decided at the full rate; got \(restAfter)"
        )
    }
}
