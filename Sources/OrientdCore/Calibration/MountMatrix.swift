/// The 3×3 matrix that turns a sensor's raw axes into the device's axes:
/// corrected = M · raw, row i giving axis i (the convention of the kernel's
/// `mount_matrix`, systemd's hwdb `ACCEL_MOUNT_MATRIX` and iio-sensor-proxy).
public struct MountMatrix: Hashable, Sendable {
    public var rows: (Vector3, Vector3, Vector3) {
        get { (row0, row1, row2) }
        set { (row0, row1, row2) = newValue }
    }
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public init(_ row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    public static let identity = MountMatrix(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    @inlinable
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(row0.dot(v), row1.dot(v), row2.dot(v))
    }

    public var isIdentity: Bool { self == .identity }

    public var determinant: Double { row0.dot(row1.cross(row2)) }

    public var transposed: MountMatrix {
        MountMatrix(
            Vector3(row0.x, row1.x, row2.x),
            Vector3(row0.y, row1.y, row2.y),
            Vector3(row0.z, row1.z, row2.z))
    }
}

extension MountMatrix {
    /// What is odd about a matrix, worst first. An empty list means a proper rotation.
    public enum Finding: Hashable, Sendable, CustomStringConvertible {
        /// A row of zeros: that axis always reads 0, so the matrix is unusable.
        case zeroRow(Int)
        /// Two rows (nearly) depend on each other: one axis copies another, so some
        /// direction of gravity cannot be told apart. Tilt and face-up/face-down are
        /// unreliable; the upright poses still work if x and y are independent.
        case singular
        /// The rows are not unit length or not perpendicular: readings are scaled or
        /// skewed. Magnitudes are checked against g, so a scale far from 1 matters.
        case notOrthonormal

        public var description: String {
            switch self {
            case .zeroRow(let i):
                "row \(i + 1) is all zeros, so axis \(["x", "y", "z"][i]) would always read 0"
            case .singular:
                "the matrix is singular (one axis copies another); tilt and face-up/face-down will be unreliable"
            case .notOrthonormal:
                "the rows are not perpendicular unit vectors; readings will be scaled or skewed"
            }
        }

        /// Findings with which the matrix must not be used.
        public var isFatal: Bool {
            if case .zeroRow = self { return true }
            return false
        }
    }

    public var findings: [Finding] {
        let rows = [row0, row1, row2]
        var result: [Finding] = []
        for (i, r) in rows.enumerated() where r == .zero {
            result.append(.zeroRow(i))
        }
        let det = determinant
        if abs(det) < 1e-6 {
            if result.isEmpty { result.append(.singular) }
            return result
        }
        let tolerance = 1e-3
        let orthonormal =
            rows.allSatisfy { abs($0.squaredLength - 1) < tolerance }
            && abs(row0.dot(row1)) < tolerance && abs(row0.dot(row2)) < tolerance
            && abs(row1.dot(row2)) < tolerance
        // A determinant of −1 (a mirror) is not flagged: 154 of the 205 matrices in
        // systemd 252's 60-sensor.hwdb are mirrors, because many parts' axes are
        // left-handed relative to the device frame.
        if !orthonormal { result.append(.notOrthonormal) }
        return result
    }
}

extension MountMatrix: CustomStringConvertible {
    /// The `ACCEL_MOUNT_MATRIX` syntax: `1, 0, 0; 0, 1, 0; 0, 0, 1`.
    public var description: String {
        func f(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
        }
        return [row0, row1, row2].map { "\(f($0.x)), \(f($0.y)), \(f($0.z))" }.joined(separator: "; ")
    }
}
