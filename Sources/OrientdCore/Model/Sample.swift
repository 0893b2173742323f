/// One accelerometer reading with the time it was taken.
///
/// `time` comes from the source (the recording, or the sensor's timestamp channel),
/// never from the wall clock, so that replay is exact.
public struct Sample: Hashable, Sendable {
    /// Seconds from the start of the stream.
    public var time: Double
    /// m/s², as read from the sensor (before the mount matrix) or after it,
    /// depending on the stage of the pipeline.
    public var acceleration: Vector3

    @inlinable
    public init(time: Double, acceleration: Vector3) {
        self.time = time
        self.acceleration = acceleration
    }
}
