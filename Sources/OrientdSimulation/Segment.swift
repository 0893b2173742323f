import OrientdCore

/// One step of a scenario placed on the time line, with its attitudes worked out.
///
/// A segment turns the device about one fixed axis (in the device frame) along a
/// minimum-jerk profile, moves it along a straight line in the world along the same
/// profile, or both, or neither (a hold).
struct Segment: Sendable {
    enum Kind: String, Sendable, Hashable {
        case hold
        case rotate
        case pickUp = "pick-up"
        case putDown = "put-down"
        case flip
        case shake
        case move
    }

    var kind: Kind
    /// The scenario line the step came from.
    var line: Int
    var start: Double
    var duration: Double
    var end: Double { start + duration }

    var from: Attitude
    var to: Attitude
    /// The attitude at the start; the one at the end is `fromQuaternion * (axis, angle)`.
    var fromQuaternion: Quaternion
    /// The turn, in the device frame, radians.
    var axis: Vector3
    var angle: Double
    /// From the pivot (the wrist) to the sensor, in the device frame, metres.
    var lever: Vector3
    /// The displacement of the whole hand over the step, world frame, metres.
    var translation: Vector3

    /// nil: "don't care" (`-`).
    var label: PoseLabel?
    var modifiers: [Modifier]
    var shake: Shaking.Options?
    /// The jolt when a put-down meets the table, m/s².
    var impact: Double

    var isDropout: Bool { modifiers.contains(.dropout) }
    var turns: Bool { angle != 0 }
    var translates: Bool { translation != .zero }

    /// The device-to-world attitude at time t (clamped to the segment).
    func attitude(at t: Double) -> Quaternion {
        guard turns else { return fromQuaternion }
        let s = MinimumJerk.position((t - start) / duration)
        return fromQuaternion * Quaternion(axis: axis, angle: angle * s)
    }

    /// The attitude a fraction `s` (0…1) of the way through the turn.
    func attitude(fraction s: Double) -> Quaternion {
        turns ? fromQuaternion * Quaternion(axis: axis, angle: angle * s) : fromQuaternion
    }

    /// The difference step for the pivot's acceleration. Small enough that the error of
    /// the second difference (h²/12 · the fourth derivative) stays below 10⁻³ m/s² for
    /// the quickest flick, large enough that rounding does not show.
    static let differenceStep = 0.001

    /// World-frame acceleration of the sensor caused by this segment's own movement.
    ///
    /// Turning about the wrist swings the sensor along an arc: its position is
    /// pivot + R(t)·lever, and its acceleration (tangential and centripetal together) is
    /// the second derivative of that. Outside the segment the attitude is constant, so
    /// the contribution fades to exactly zero within one difference step of its edges.
    func motionAcceleration(at t: Double) -> Vector3 {
        var a = Vector3.zero
        let h = Self.differenceStep
        if turns, t > start - h, t < end + h {
            let before = attitude(at: t - h).rotate(lever)
            let now = attitude(at: t).rotate(lever)
            let after = attitude(at: t + h).rotate(lever)
            a += (before - 2 * now + after) / (h * h)
        }
        if translates {
            a += translation * (MinimumJerk.acceleration((t - start) / duration) / (duration * duration))
        }
        return a
    }
}
