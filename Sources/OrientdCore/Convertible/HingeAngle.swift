#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The angle of a convertible's hinge from its two accelerometers' gravity readings.
///
/// The frames, after each sensor's mount matrix (docs/layers.md, "Layers"): they coincide when
/// the lid is opened flat to 180° (both read (0, 0, +g) lying face up), and the hinge
/// runs along their x axis. Opening the lid turns the display's frame about x, so the
/// angle is the signed angle between the two readings projected on the y–z plane: the
/// base lying flat reads (0, 0, g), the display opened to 100° about (0, −g·sin 80°,
/// g·cos 80°), closed (0°) (0, 0, −g), folded back to 360° (0, 0, −g) again.
///
/// Gravity alone cannot tell 0° from 360°, nor anything while the hinge stands upright
/// (the projections vanish) or a body is being moved (the readings are not gravity):
/// the angle is undefined then, and a sequence of readings is unwrapped against the
/// last angle (`unwrapped`) so that folding through 360° does not jump to 0°.
public enum HingeAngle {
    /// Below this share of gravity in the y–z plane the hinge is too close to vertical:
    /// sin 25°, the tilt at which a 1 m/s² disturbance still moves the angle by under 15°.
    public static let minimumProjection = 0.42
    /// A reading further than this from 1 g (m/s²) is not gravity alone: the body moves.
    public static let magnitudeTolerance = 1.5

    /// The angle in degrees in [0, 360), or nil when the readings cannot give one.
    public static func degrees(base: Vector3, display: Vector3, gravity: Double = standardGravity) -> Double? {
        for reading in [base, display] {
            if abs(reading.length - gravity) > magnitudeTolerance { return nil }
            if (reading.y * reading.y + reading.z * reading.z).squareRoot() < minimumProjection * gravity { return nil }
        }
        let cross = base.y * display.z - base.z * display.y
        let dot = base.y * display.y + base.z * display.z
        let turned = atan2(cross, dot) * 180 / .pi
        let angle = 180 - turned
        return angle >= 360 ? angle - 360 : angle
    }

    /// Closed (0°) and folded flat (360°) give one and the same pair of readings: the
    /// display is turned half a turn about the hinge either way. Within this many degrees
    /// of that seam an angle is ambiguous, and only the hinge's history can tell.
    public static let seam = 30.0

    /// `angle` read against the last one: near the seam it is taken on the branch nearest
    /// `previous` and kept within [0, 360], since a hinge turns continuously (a reading of
    /// 3° just after 355° is 360°, folded back, not a lid slammed shut). Away from the seam
    /// a reading is what it is, however far from `previous`: the machine may have been
    /// carried (no angle) while it was opened.
    public static func unwrapped(_ angle: Double, previous: Double?) -> Double {
        guard let previous, min(angle, 360 - angle) < seam else { return angle }
        var best = angle
        for candidate in [angle - 360, angle + 360] where abs(candidate - previous) < abs(best - previous) {
            best = candidate
        }
        return min(max(best, 0), 360)
    }
}
