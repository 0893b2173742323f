/// A quarter-turn mount matrix in words for the person who holds the device: what it
/// does to the sensor's axes, and how the sensor must sit for it.
///
/// `x and y swapped, z inverted: the sensor is mounted turned 90° counter-clockwise and
/// flipped (facing the back)`.
public struct MountDescription: Equatable, Sendable, CustomStringConvertible {
    /// What the matrix does to the axes: "x and y swapped, z inverted", or "no change".
    public var axes: String
    /// How the sensor sits against the screen.
    public var mounting: String

    public var description: String { "\(axes): \(mounting)" }

    /// Nil for a matrix that is not 0s and ±1s, one in each row and column.
    public init?(_ matrix: MountMatrix) {
        let rows = [matrix.row0, matrix.row1, matrix.row2]
        var source: [Int] = []
        var inverted: [Int] = []
        for (index, row) in rows.enumerated() {
            let parts = [row.x, row.y, row.z]
            guard parts.filter({ $0 != 0 }).count == 1, let column = parts.firstIndex(where: { abs($0) == 1 }) else {
                return nil
            }
            source.append(column)
            if parts[column] < 0 { inverted.append(index) }
        }
        guard Set(source).count == 3 else { return nil }
        let names = ["x", "y", "z"]
        func list(_ axes: [Int]) -> String {
            let words = axes.map { names[$0] }
            return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
        var changes: [String] = []
        let moved = source.indices.filter { source[$0] != $0 }
        if moved.count == 2 {
            changes.append("\(list(moved)) swapped")
        } else if moved.count == 3 {
            changes.append(
                "axes taken round (x reads the sensor's \(names[source[0]]), y its \(names[source[1]]), z its \(names[source[2]]))")
        }
        if !inverted.isEmpty { changes.append("\(list(inverted)) inverted") }
        axes = changes.isEmpty ? "no change" : changes.joined(separator: ", ")

        if matrix.determinant < 0 {
            mounting =
                "the sensor's axes are a mirror image of the screen's, as for most parts in systemd's hwdb "
                + "(no turn of the part explains it; the matrix above does)"
        } else if abs(matrix.row2.z) != 1 {
            mounting = "the sensor stands on its edge: its z axis lies in the plane of the screen"
        } else {
            // M = turn · flip, the flip (half a turn about x, to face the back) there when z
            // is inverted: M · flip is the turn, and its row 0 is (cos θ, −sin θ, 0) for a
            // turn of θ counter-clockwise seen from the front.
            let flipped = matrix.row2.z < 0
            let turn = flipped ? Vector3(matrix.row0.x, -matrix.row0.y, -matrix.row0.z) : matrix.row0
            let words: String =
                switch (turn.x, turn.y) {
                case (1, _): ""
                case (-1, _): "turned 180°"
                case (_, -1): "turned 90° counter-clockwise (seen from the front)"
                default: "turned 90° clockwise (seen from the front)"
                }
            switch (words.isEmpty, flipped) {
            case (true, false): mounting = "the sensor sits square with the screen"
            case (false, false): mounting = "the sensor is mounted \(words)"
            case (true, true): mounting = "the sensor is mounted flipped (facing the back)"
            case (false, true): mounting = "the sensor is mounted \(words) and flipped (facing the back)"
            }
        }
    }
}
