/// Which activities can contribute at a given time, found by binary search.
///
/// A long benchmark scenario has thousands of activities; scanning them all for each
/// of ten sub-samples of a million samples would dominate the run time. The time line
/// is cut at every activity's start and end, and each piece lists who is active in it.
struct ActivityIndex: Sendable {
    /// Piece i spans [bounds[i], bounds[i + 1]).
    private let bounds: [Double]
    private let active: [[Int]]

    init(_ activities: [any Activity]) {
        var cuts = activities.flatMap { [$0.activeStart, $0.activeEnd] }
        cuts.sort()
        var unique: [Double] = []
        for c in cuts where unique.last != c { unique.append(c) }
        bounds = unique
        var active = [[Int]](repeating: [], count: max(0, unique.count - 1))
        for (index, activity) in activities.enumerated() {
            var piece = Self.piece(containing: activity.activeStart, in: unique)
            while piece < active.count, unique[piece] < activity.activeEnd {
                active[piece].append(index)
                piece += 1
            }
        }
        self.active = active
    }

    /// The activities that may contribute at t.
    func active(at t: Double) -> [Int] {
        let piece = Self.piece(containing: t, in: bounds)
        return piece >= 0 && piece < active.count ? active[piece] : []
    }

    /// Whether no activity contributes anywhere in [a, b].
    func isQuiet(from a: Double, to b: Double) -> Bool {
        let piece = Self.piece(containing: a, in: bounds)
        if piece < 0 { return bounds.isEmpty || b < bounds[0] }
        if piece >= active.count { return true }
        return active[piece].isEmpty && b < bounds[piece + 1]
    }

    /// The index i with bounds[i] ≤ t < bounds[i + 1]; −1 before the first bound.
    private static func piece(containing t: Double, in bounds: [Double]) -> Int {
        var low = 0
        var high = bounds.count
        while low < high {
            let mid = (low + high) / 2
            if bounds[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }
}
