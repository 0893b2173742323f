import OrientdCore

/// What orientd knows of one accelerometer once it has looked at it: what `orientd list`
/// prints and what `run` reads with.
public struct AccelerometerInfo: Sendable {
    public var candidate: AccelerometerCandidate
    public var calibration: AccelerometerCalibration
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: MountMatrixSource
    public var readPath: SensorReadPath
    /// Why a sensor with a buffer is polled, when it is.
    public var polledBecause: String?
    /// The sampling frequency in effect (set from `sampling_frequency_available` when the
    /// device offers a choice), if the device has one.
    public var samplingFrequency: Double?
    public var samplingFrequencyAvailable: String?
    /// How to change it (the adaptive rate lowers it at rest); nil without one.
    var samplingFrequencySetting: SamplingFrequencySetting?
    /// The change sensitivity it offers (a HID sensor hub), given at rest; nil without one.
    public var changeSensitivity: ChangeSensitivity?
    /// Odd attributes met while looking.
    public var issues: [AttributeIssue]
    /// Where it came from: a syspath, or a libiio URI for remote devices.
    public var location: String

    /// What the service needs of it.
    public var attachment: SensorAttachment {
        SensorAttachment(
            candidate: candidate, readPath: readPath, polledBecause: polledBecause, samplingFrequency: samplingFrequency,
            mountMatrix: mountMatrix)
    }
}
