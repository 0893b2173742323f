#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mount matrix that makes the poses a person held read as they should
/// (`orientd calibrate`).
///
/// Nearly every sensor is mounted a whole number of quarter turns from the screen, so the
/// fit first tries the 48 matrices of 0s and ±1s (turns and mirrors) and keeps the one
/// whose worst pose is closest; only when none is within `tolerance` does it build the
/// rotation from the poses themselves. Poses that all lie across one device axis (upright
/// and flat leave x unseen) cannot tell a mounting from its mirror image, which differ in
/// that axis's sign: 154 of the 205 matrices in systemd 252's hwdb are mirrors, so the
/// fit says so instead of guessing.
public struct MountMatrixFit: Equatable, Sendable {
    public var matrix: MountMatrix
    /// Whether `matrix` is an exact quarter-turn mounting (0s and ±1s).
    public var exact: Bool
    /// For each pose, in the order given, how far (degrees) it reads from where it should
    /// with `matrix`: how steadily it was held, or how far off a quarter turn the sensor is.
    public var offBy: [Double]
    /// Set when the poses cannot tell `matrix` from its mirror image.
    public var undecided: Undecided?

    public struct Undecided: Equatable, Sendable {
        /// The device axis (0 x, 1 y, 2 z) that no pose showed.
        public var axis: Int
        /// The matrix that fits as well, `matrix` with that axis's row negated.
        public var mirror: MountMatrix
    }

    /// Why the poses give no matrix, in words for the person holding the device.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Degrees a pose may read from an exact quarter-turn mounting and still count as one:
    /// a tablet held upright by hand is within about 10°.
    public static let defaultTolerance = 20.0

    public static func fit(_ poses: [HeldPose], tolerance: Double = defaultTolerance) throws(Problem) -> MountMatrixFit {
        var expected: [Vector3] = []
        var measured: [Vector3] = []
        for held in poses {
            guard let direction = held.pose.reading else { throw Problem("\(held.pose) is not a pose to hold") }
            guard held.reading.isFinite, held.reading.length > 1 else {
                throw Problem(
                    "the sensor read almost nothing (\(JSONLineWriter.number(held.reading.length, decimals: 2)) m/s²) "
                        + "while \(held.pose): it is broken, or its scale is wrong (orientd list shows it)")
            }
            expected.append(direction)
            measured.append(held.reading.normalized)
        }
        // Poses must be told apart by the sensor as a person tells them apart: a quarter turn
        // between upright and flat must read as one, whatever the mounting.
        for i in expected.indices {
            for j in expected.indices where j > i {
                let should = degrees(between: expected[i], expected[j])
                let did = degrees(between: measured[i], measured[j])
                if abs(should - did) > 1.5 * tolerance {
                    throw Problem(
                        "\(poses[i].pose) and \(poses[j].pose) read \(Int(did.rounded()))° apart, not \(Int(should.rounded()))°: "
                            + "was the device held as asked, and still?")
                }
            }
        }
        guard let pair = independentPair(expected) else {
            throw Problem("the poses all point the same way: two a quarter turn apart are needed (upright and flat)")
        }
        let unseen = unseenAxis(expected)

        func offBy(_ matrix: MountMatrix) -> [Double] {
            zip(measured, expected).map { degrees(between: matrix.apply($0), $1) }
        }
        func undecided(_ matrix: MountMatrix) -> Undecided? {
            unseen.map { Undecided(axis: $0, mirror: matrix.negatingRow($0)) }
        }

        // The quarter-turn mountings, best first; for mirror twins (equal when an axis is
        // unseen) the one without a mirror, so that `matrix` is a plain turn.
        let ranked = MountMatrix.quarterTurns
            .map { (matrix: $0, off: offBy($0)) }
            .min { a, b in
                let (worstA, worstB) = (a.off.max() ?? 0, b.off.max() ?? 0)
                if abs(worstA - worstB) > 1e-9 { return worstA < worstB }
                return a.matrix.determinant > b.matrix.determinant
            }
        if let best = ranked, (best.off.max() ?? 0) <= tolerance {
            return MountMatrixFit(matrix: best.matrix, exact: true, offBy: best.off, undecided: undecided(best.matrix))
        }

        // At an angle: the rotation taking the pair's readings onto their directions
        // (TRIAD), or its mirror when a third pose shows that fits better.
        let (i, j) = pair
        let a1 = expected[i]
        let a2 = (expected[j] - a1 * a1.dot(expected[j])).normalized
        let b1 = measured[i]
        let b2 = (measured[j] - b1 * b1.dot(measured[j])).normalized
        let (a3, b3) = (a1.cross(a2), b1.cross(b2))
        func triad(_ sign: Double) -> MountMatrix {
            func row(_ r: Int) -> Vector3 {
                func c(_ v: Vector3) -> Double { [v.x, v.y, v.z][r] }
                return (b1 * c(a1) + b2 * c(a2) + b3 * (sign * c(a3))).rounded(toPlaces: 3)
            }
            return MountMatrix(row(0), row(1), row(2))
        }
        var matrix = triad(1)
        if unseen == nil, (offBy(triad(-1)).max() ?? 0) < (offBy(matrix).max() ?? 0) { matrix = triad(-1) }
        let off = offBy(matrix)
        if let worst = off.indices.max(by: { off[$0] < off[$1] }), off[worst] > tolerance {
            throw Problem(
                "no mounting makes every pose read right (\(poses[worst].pose) stays \(Int(off[worst].rounded()))° off): "
                    + "was the device held as asked, and still?")
        }
        return MountMatrixFit(matrix: matrix, exact: false, offBy: off, undecided: undecided(matrix))
    }

    public static func degrees(between a: Vector3, _ b: Vector3) -> Double {
        let cosine = a.normalized.dot(b.normalized)
        return acos(min(max(cosine, -1), 1)) * 180 / .pi
    }

    /// Two poses whose directions are not parallel (the most nearly perpendicular first).
    static func independentPair(_ directions: [Vector3]) -> (Int, Int)? {
        var best: (Int, Int)?
        var bestCross = 0.5
        for i in directions.indices {
            for j in directions.indices where j > i {
                let cross = directions[i].cross(directions[j]).length
                if cross > bestCross { (best, bestCross) = ((i, j), cross) }
            }
        }
        return best
    }

    /// The device axis no direction has a part along, when they all lie in one plane.
    static func unseenAxis(_ directions: [Vector3]) -> Int? {
        (0..<3).first { axis in directions.allSatisfy { abs([$0.x, $0.y, $0.z][axis]) < 0.5 } }
    }
}

extension MountMatrix {
    /// The 48 matrices of 0s and ±1s with one non-zero entry in each row and column: every
    /// mounting a whole number of quarter turns from the screen, mirrored or not.
    public static let quarterTurns: [MountMatrix] = {
        let axes = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        var result: [MountMatrix] = []
        for order in orders {
            for signs in 0..<8 {
                func row(_ r: Int) -> Vector3 { axes[order[r]] * (signs & (1 << r) == 0 ? 1 : -1) }
                result.append(MountMatrix(row(0), row(1), row(2)))
            }
        }
        return result
    }()

    /// This matrix with one row negated: the mounting's mirror image along that axis.
    public func negatingRow(_ row: Int) -> MountMatrix {
        var copy = self
        switch row {
        case 0: copy.row0 = -row0
        case 1: copy.row1 = -row1
        default: copy.row2 = -row2
        }
        return copy
    }
}

extension Vector3 {
    func rounded(toPlaces places: Int) -> Vector3 {
        let scale = pow(10, Double(places))
        func r(_ v: Double) -> Double {
            let result = (v * scale).rounded() / scale
            return result == 0 ? 0 : result  // no -0 in a printed matrix
        }
        return Vector3(r(x), r(y), r(z))
    }
}
