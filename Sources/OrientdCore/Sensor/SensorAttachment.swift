/// What the service needs to know of a sensor it begins to read: what it announces to
/// subscribers and the log, and the mount matrix its readings are turned with.
public struct SensorAttachment: Sendable, Equatable {
    public var candidate: AccelerometerCandidate
    public var readPath: SensorReadPath
    /// Why a sensor with a buffer is polled, when it is.
    public var polledBecause: String?
    /// The sampling frequency in effect, if the device has one.
    public var samplingFrequency: Double?
    public var mountMatrix: MountMatrix

    public init(
        candidate: AccelerometerCandidate, readPath: SensorReadPath, polledBecause: String? = nil, samplingFrequency: Double? = nil,
        mountMatrix: MountMatrix
    ) {
        self.candidate = candidate
        self.readPath = readPath
        self.polledBecause = polledBecause
        self.samplingFrequency = samplingFrequency
        self.mountMatrix = mountMatrix
    }
}
