/// A three-axis acceleration in m/s².
///
/// After the mount matrix is applied the axes follow the Linux IIO convention:
/// upright in the natural pose reads (0, −g, 0), lying face-up reads (0, 0, +g).
public struct Vector3: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    @inlinable public var squaredLength: Double { x * x + y * y + z * z }
    @inlinable public var length: Double { squaredLength.squareRoot() }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inlinable public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    /// The unit vector in the same direction; zero stays zero.
    @inlinable public var normalized: Vector3 {
        let l = length
        return l > 0 ? self / l : self
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }
}

/// Standard gravity, m/s².
public let standardGravity: Double = 9.80665
