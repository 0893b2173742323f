import OrientdCore

/// The sum of what the activities do at one instant, each part in the frame where it is
/// simplest to state.
struct ActivityEffect: Sendable {
    /// Acceleration in the world frame (z up), m/s².
    var world = Vector3.zero
    /// Acceleration in the user's frame: (forward, left, up), m/s². Walking and vehicles
    /// push the user, and the device goes along with the user's heading.
    var body = Vector3.zero
    /// Acceleration in the device frame, m/s²: things done to the device itself
    /// (a finger on the screen, its vibration motor).
    var device = Vector3.zero
    /// A small extra rotation of the device, in the device frame (hand sway, tremor).
    var wobble = Quaternion.identity

    /// The user faces world −y (the screen, at heading 0, faces +y towards the user),
    /// so forward is −y and left is +x.
    static func worldFromBody(_ body: Vector3) -> Vector3 {
        Vector3(body.y, -body.x, body.z)
    }
}
