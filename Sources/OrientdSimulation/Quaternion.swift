import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A unit quaternion for the device's attitude: it turns device-frame vectors into
/// world-frame vectors.
///
/// Quaternions rather than rotation matrices because the simulator interpolates between
/// attitudes (a rotation about one fixed axis at a time) and composes many small wobbles
/// per sample; both stay exact and normalised more easily this way.
struct Quaternion: Hashable, Sendable {
    var w: Double
    var x: Double
    var y: Double
    var z: Double

    init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// A right-handed rotation by `angle` radians about `axis` (need not be unit length).
    init(axis: Vector3, angle: Double) {
        let unit = axis.normalized
        let half = angle / 2
        let s = sin(half)
        self.init(w: cos(half), x: unit.x * s, y: unit.y * s, z: unit.z * s)
    }

    static func aboutX(degrees: Double) -> Quaternion { Quaternion(axis: Vector3(1, 0, 0), angle: degrees.radians) }
    static func aboutY(degrees: Double) -> Quaternion { Quaternion(axis: Vector3(0, 1, 0), angle: degrees.radians) }
    static func aboutZ(degrees: Double) -> Quaternion { Quaternion(axis: Vector3(0, 0, 1), angle: degrees.radians) }

    /// The Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    var negated: Quaternion { Quaternion(w: -w, x: -x, y: -y, z: -z) }

    func dot(_ o: Quaternion) -> Double { w * o.w + x * o.x + y * o.y + z * o.z }

    /// Rotates a vector: v + 2w(u × v) + 2u × (u × v), u being the vector part.
    func rotate(_ v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The rotation as an axis and an angle in [0, π]; the axis is arbitrary for no rotation.
    var axisAngle: (axis: Vector3, angle: Double) {
        let q = w < 0 ? negated : self
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard s > 1e-15 else { return (Vector3(0, 0, 1), 0) }
        return (Vector3(q.x / s, q.y / s, q.z / s), 2 * atan2(s, q.w))
    }
}

extension Double {
    var radians: Double { self * .pi / 180 }
    var degrees: Double { self * 180 / .pi }
}
