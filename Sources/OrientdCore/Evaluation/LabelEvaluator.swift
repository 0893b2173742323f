/// Judges the device poses a classifier reported against a labelled recording's
/// `expect` column. It is the oracle of the replay tests and of `orientd evaluate`.
///
/// A *stretch* is a run of consecutive samples with the same label; `-` (nil) means
/// "don't care" (the device is moving). The rules:
/// - in a stretch labelled L, the pose must become L within the latency bound after the
///   stretch starts (at once if it already is L), and stay L to the stretch's end;
/// - every change of pose must be a change *to* the label of the stretch it happens in
///   or, inside a don't-care stretch, to the label of the next labelled stretch.
///   A change to anything else is spurious: a flap, or a flash through a wrong pose.
public struct LabelEvaluator: Sendable {
    public struct Violation: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable {
            case missed, late, spurious, unstable
        }
        public var kind: Kind
        public var time: Double
        public var message: String
        public var description: String { "\(LabelEvaluator.format(time)) s: \(message)" }
    }

    public struct Stretch: Hashable, Sendable {
        public var label: DeviceOrientation
        public var start: Double
        public var end: Double
        /// Seconds from the stretch's start until the pose was the label; nil if never.
        public var latency: Double?
    }

    public struct Result: Hashable, Sendable {
        public var stretches: [Stretch]
        public var violations: [Violation]
        public var changes: Int
        public var passed: Bool { violations.isEmpty }
        /// The largest latency over the stretches that were reached.
        public var worstLatency: Double? { stretches.compactMap(\.latency).max() }
    }

    /// The latency bound in seconds for a stream at `rate` Hz: 300 ms at 10 Hz and
    /// above; below, three sample intervals (a pose needs two agreeing readings, and the
    /// rotation may end just after a reading).
    public static func defaultLatencyBound(rate: Double?) -> Double {
        guard let rate, rate > 0 else { return 0.3 }
        return max(0.3, 3 / rate)
    }

    public let latencyBound: Double

    private struct Pending {
        var label: DeviceOrientation?
        var start: Double
        var end: Double
    }

    private var samples: [(time: Double, label: DeviceOrientation?, pose: DeviceOrientation)] = []

    public init(latencyBound: Double) {
        self.latencyBound = latencyBound
    }

    /// Records one sample: its time, its label, and the pose reported after it.
    public mutating func observe(time: Double, expect: DeviceOrientation?, pose: DeviceOrientation) {
        samples.append((time, expect, pose))
    }

    public func result() -> Result {
        // Stretches by label.
        var stretches: [Pending] = []
        var stretchOf: [Int] = []
        stretchOf.reserveCapacity(samples.count)
        for s in samples {
            if let last = stretches.last, last.label == s.label {
                stretches[stretches.count - 1].end = s.time
            } else {
                stretches.append(Pending(label: s.label, start: s.time, end: s.time))
            }
            stretchOf.append(stretches.count - 1)
        }
        var violations: [Violation] = []
        var changes = 0
        var previousPose = DeviceOrientation.unknown
        var reached: [Double?] = Array(repeating: nil, count: stretches.count)
        var unstableReported = Set<Int>()

        func nextLabel(after index: Int) -> DeviceOrientation? {
            stretches[(index + 1)...].first { $0.label != nil }?.label ?? nil
        }

        for (sampleIndex, s) in samples.enumerated() {
            let stretchIndex = stretchOf[sampleIndex]
            let stretch = stretches[stretchIndex]
            if s.pose != previousPose {
                changes += 1
                let allowed = stretch.label ?? nextLabel(after: stretchIndex)
                if s.pose != allowed {
                    violations.append(
                        Violation(
                            kind: .spurious, time: s.time,
                            message: "spurious change \(previousPose) → \(s.pose) (expected \(allowed.map(\.rawValue) ?? "no change"))"))
                } else if stretch.label != nil, reached[stretchIndex] != nil, !unstableReported.contains(stretchIndex) {
                    unstableReported.insert(stretchIndex)
                    violations.append(
                        Violation(kind: .unstable, time: s.time, message: "left and re-entered \(s.pose) within its stretch"))
                }
                previousPose = s.pose
            }
            if let label = stretch.label, s.pose == label, reached[stretchIndex] == nil {
                reached[stretchIndex] = s.time
            }
        }

        var results: [Stretch] = []
        for (i, stretch) in stretches.enumerated() {
            guard let label = stretch.label else { continue }
            let latency = reached[i].map { $0 - stretch.start }
            results.append(Stretch(label: label, start: stretch.start, end: stretch.end, latency: latency))
            if let latency {
                if latency > latencyBound + 1e-9 {
                    violations.append(
                        Violation(
                            kind: .late, time: stretch.start,
                            message: "\(label) reported \(Self.format(latency)) s after its stretch began (bound \(Self.format(latencyBound)) s)"))
                }
            } else {
                violations.append(
                    Violation(
                        kind: .missed, time: stretch.start,
                        message: "\(label) never reported during its stretch \(Self.format(stretch.start))–\(Self.format(stretch.end)) s"))
            }
        }
        violations.sort { $0.time < $1.time }
        return Result(stretches: results, violations: violations, changes: changes)
    }

    static func format(_ t: Double) -> String {
        var out: [UInt8] = []
        RecordingWriter.appendFixed(t, decimals: 3, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
