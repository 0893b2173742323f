#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the classifier knows after a reading: the pose it reports, the pose the readings
/// argue for instead (if any), since when, and what keeps that one back. Taken on demand
/// (`OrientationClassifier.evidence`), never per reading on the daemon's path, for
/// `orientd explain`.
public struct ClassifierEvidence: Hashable, Sendable {
    /// The time of the last reading.
    public var time: Double
    /// The pose reported.
    public var reported: DeviceOrientation
    /// The filtered gravity vector, after the mount matrix; nil before the first reading
    /// judged plausible since start or since a gap.
    public var filtered: Vector3?
    /// The pose the readings argue for, when it is not the reported one.
    public var proposed: DeviceOrientation?
    /// Since when `proposed` (or, when nil, the reported pose) has been argued for
    /// without a break.
    public var proposedSince: Double
    /// What keeps `proposed` from being reported; nil when nothing is proposed.
    public var holdBack: HoldBack?
    /// The last disturbance: a tap, a jolt, a swing, a magnitude far from g.
    public var lastDisturbance: Double?
    /// Whether the device is being carried by someone walking (`WalkingSteps`).
    public var walking: Bool

    public init(
        time: Double, reported: DeviceOrientation, filtered: Vector3?, proposed: DeviceOrientation?, proposedSince: Double,
        holdBack: HoldBack?, lastDisturbance: Double?, walking: Bool
    ) {
        self.time = time
        self.reported = reported
        self.filtered = filtered
        self.proposed = proposed
        self.proposedSince = proposedSince
        self.holdBack = holdBack
        self.lastDisturbance = lastDisturbance
        self.walking = walking
    }

    /// Degrees the screen faces up (+90: face-up) or down (−90: face-down).
    public var tilt: Double? {
        guard let f = filtered, f.length > 0 else { return nil }
        return asin(max(-1, min(1, f.z / f.length))) * 180 / .pi
    }

    /// Degrees the device is turned in its screen plane, seen from the front, counter-
    /// clockwise from portrait: 0 portrait, 90 landscape-left, 180 portrait-upside-down,
    /// 270 landscape-right (the screen angle each shows upright). Nil while gravity lies
    /// along the screen's normal.
    public var turn: Double? {
        guard let f = filtered, f.x != 0 || f.y != 0 else { return nil }
        let degrees = atan2(-f.x, -f.y) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Degrees between the filtered gravity and `pose`'s direction; nil for unknown or
    /// before a reading.
    public func angle(from pose: DeviceOrientation) -> Double? {
        guard let f = filtered, let axis = pose.reading, f.length > 0 else { return nil }
        return acos(max(-1, min(1, f.normalized.dot(axis)))) * 180 / .pi
    }
}
