import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device attitude in the angles people use for handheld devices, in degrees.
///
/// The frame is the Linux IIO device frame (docs/events.md, "Axes and names"): x towards the left
/// edge, y towards the bottom edge, z out of the screen. The world frame has z up; with
/// `heading` 0 the screen faces world +y, where the user is.
///
/// At rest the accelerometer reads `g · up`, where `up` (the world's up in the device
/// frame) is `(−sin roll · cos tilt, −cos roll · cos tilt, sin tilt)`.
struct Attitude: Hashable, Sendable {
    /// In-plane rotation: 0 top edge up (portrait), 90 right edge up (landscape-left),
    /// 180 bottom edge up, 270 left edge up (landscape-right).
    var roll: Double
    /// Elevation of the screen normal: +90 screen to the sky, 0 upright, −90 screen down.
    var tilt: Double
    /// Yaw about the world's vertical, relative to the user. It does not change what the
    /// device reads at rest, only how the user's accelerations (walking, a turning bus)
    /// appear in the device frame.
    var heading: Double

    init(roll: Double, tilt: Double, heading: Double = 0) {
        self.roll = Self.normalizedRoll(roll)
        self.tilt = tilt
        self.heading = heading
    }

    /// Device-to-world rotation: yaw by heading, then lean the screen from flat
    /// (face-up, device frame = world frame) by tilt − 90 about the device's x axis,
    /// after turning it in its own plane by roll.
    var quaternion: Quaternion {
        Quaternion.aboutZ(degrees: heading) * Quaternion.aboutX(degrees: tilt - 90) * Quaternion.aboutZ(degrees: roll)
    }

    /// The world's up direction in the device frame (a unit vector).
    var up: Vector3 { Self.up(roll: roll, tilt: tilt) }

    static func up(roll: Double, tilt: Double) -> Vector3 {
        let r = roll.radians
        let t = tilt.radians
        return Vector3(-sin(r) * cos(t), -cos(r) * cos(t), sin(t))
    }

    /// Roll and tilt of any attitude, read from where the world's up points in the device
    /// frame. Roll is meaningless when the device lies flat; it is reported as 0 then.
    static func rollAndTilt(of q: Quaternion) -> (roll: Double, tilt: Double) {
        let u = q.conjugate.rotate(Vector3(0, 0, 1))
        let tilt = asin(max(-1, min(1, u.z))).degrees
        let horizontal = (u.x * u.x + u.y * u.y).squareRoot()
        let roll = horizontal < 1e-9 ? 0 : atan2(-u.x, -u.y).degrees
        return (normalizedRoll(roll), tilt)
    }

    static func normalizedRoll(_ roll: Double) -> Double {
        var r = roll.truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        // Keep 360 − ε from printing as 360 and compare equal to 0.
        if r > 360 - 1e-9 { r = 0 }
        return r
    }

    static func normalizedHeading(_ heading: Double) -> Double {
        var h = heading.truncatingRemainder(dividingBy: 360)
        if h > 180 { h -= 360 }
        if h <= -180 { h += 360 }
        return h
    }
}
