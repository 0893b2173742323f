import OrientdCore

/// What a careful person watching the device would call its pose: the rules behind the
/// `expect` column.
///
/// Two sets of thresholds. The automatic label of a still pose is deliberately strict
/// (clearly upright or clearly flat, else "don't care"), so an automatic label is never
/// arguable. A label written in the scenario may go further, for example "still
/// portrait" at a 40° diagonal or at 68° tilt, but not beyond `plausible…`: a label that
/// no honest observer would give is a scenario error.
enum LabelRules {
    /// |tilt| from which a still device is face-up or face-down.
    static let flatTilt = 75.0
    /// |tilt| up to which a still device is upright.
    static let uprightTilt = 60.0
    /// How far the roll may be from an upright pose's axis for the automatic label.
    static let uprightRoll = 25.0

    /// Limits for labels written in a scenario.
    static let plausibleUprightTilt = 72.0
    static let plausibleUprightRoll = 55.0
    static let plausibleFlatTilt = 60.0

    /// The automatic label of a still device, or nil for "don't care".
    static func automatic(roll: Double, tilt: Double) -> DeviceOrientation? {
        if tilt >= flatTilt { return .faceUp }
        if tilt <= -flatTilt { return .faceDown }
        guard abs(tilt) <= uprightTilt else { return nil }
        let nearest = nearestUpright(roll: roll)
        return rollDistance(roll, to: nearest) <= uprightRoll ? nearest : nil
    }

    /// Whether an observer could honestly call a device at this roll and tilt `label`.
    static func isPlausible(_ label: DeviceOrientation, roll: Double, tilt: Double) -> Bool {
        switch label {
        case .faceUp: return tilt >= plausibleFlatTilt
        case .faceDown: return tilt <= -plausibleFlatTilt
        case .unknown: return false
        case .portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight:
            return abs(tilt) <= plausibleUprightTilt && rollDistance(roll, to: label) <= plausibleUprightRoll
        }
    }

    static func nearestUpright(roll: Double) -> DeviceOrientation {
        let quarter = Int((Attitude.normalizedRoll(roll) / 90).rounded()) % 4
        return [DeviceOrientation.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight][quarter]
    }

    /// The angle in degrees (0…180) between a roll and an upright pose's roll.
    static func rollDistance(_ roll: Double, to pose: DeviceOrientation) -> Double {
        guard let rotation = pose.rotation else { return 180 }
        let d = abs(Attitude.normalizedRoll(roll - Double(rotation.angle)))
        return min(d, 360 - d)
    }

    /// The roll of an upright pose; nil for the others.
    static func roll(of pose: DeviceOrientation) -> Double? {
        pose.rotation.map { Double($0.angle) }
    }
}
