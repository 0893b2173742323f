@testable import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

let g = standardGravity

/// The reading of a device at rest: in-plane roll φ (0 portrait, 90 landscape-left,
/// 180 upside-down, 270 landscape-right) and tilt θ (+90 face-up), docs/events.md, "Axes and names".
func rest(roll: Double, tilt: Double = 0, magnitude: Double = standardGravity) -> Vector3 {
    let r = roll * .pi / 180
    let t = tilt * .pi / 180
    return Vector3(-sin(r) * cos(t), -cos(r) * cos(t), sin(t)) * magnitude
}

/// Feeds `duration` seconds of a constant reading at `rate` Hz from `start`; returns the
/// times at which the classifier reported a change, with the new pose.
@discardableResult
func feed(
    _ classifier: inout OrientationClassifier, _ vector: Vector3, from start: Double, duration: Double, rate: Double
) -> [(Double, DeviceOrientation)] {
    var changes: [(Double, DeviceOrientation)] = []
    let count = Int((duration * rate).rounded())
    for i in 0..<count {
        let t = start + Double(i) / rate
        if let pose = classifier.update(time: t, acceleration: vector) { changes.append((t, pose)) }
    }
    return changes
}

/// A small deterministic generator for noise in tests.
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}
