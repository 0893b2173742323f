/// A pose a person held, and what the sensor read meanwhile, before any mount matrix.
public struct HeldPose: Hashable, Sendable {
    public var pose: DeviceOrientation
    /// The mean raw reading, m/s² (after scale and offset, before the mount matrix).
    public var reading: Vector3

    public init(_ pose: DeviceOrientation, reading: Vector3) {
        self.pose = pose
        self.reading = reading
    }
}
