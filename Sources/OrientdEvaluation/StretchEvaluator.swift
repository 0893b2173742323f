import OrientdCore

/// Judges a stream of reported states against the labels of a recording. It is the
/// oracle of the replay tests, of `orientd-lab evaluate` and of its figures; `LabelEvaluator`
/// judges the device pose, `ScreenLabels` turns the same labels into the screen's.
///
/// A *stretch* is a run of consecutive samples with the same label; nil means "don't
/// care" (the device is moving). The rules:
/// - in a stretch labelled with a state L (a *hold*), the reported state must become L
///   within the latency bound after the stretch starts (at once if it already is L), and
///   stay L to the stretch's end;
/// - in a stretch labelled `stable` (an ambiguous pose), any state is right, but once the
///   latency bound has passed (the motion into it may still be settling) it must not
///   change;
/// - every change must be a change *to* the label of the stretch it happens in or, inside
///   a don't-care stretch, to the label of the next labelled stretch (anything, when that
///   one is `stable`). A change to anything else is spurious: a flap, or a flash through
///   a wrong state.
public struct StretchEvaluator<State: Hashable & Sendable>: Sendable {
    public enum Label: Hashable, Sendable, CustomStringConvertible {
        case state(State)
        case stable

        public var description: String { state.map { "\($0)" } ?? "stable" }

        var state: State? {
            if case .state(let s) = self { s } else { nil }
        }
    }

    public struct Violation: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable {
            case missed, late, spurious, unstable
        }
        public var kind: Kind
        public var time: Double
        public var message: String
        public var description: String { "\(formatSeconds(time)) s: \(message)" }
    }

    public struct Stretch: Hashable, Sendable {
        public var label: Label
        public var start: Double
        public var end: Double
        /// Seconds from the stretch's start until the state was the label (a hold), or
        /// until it was settled (`stable`: the latency bound); nil if a hold never was.
        public var latency: Double?
        /// Changes of state inside the stretch after `latency`: in a hold, leaving the
        /// label; in a `stable` stretch, any change. None is right.
        public var changesAfterSettling: Int
        /// Samples in the stretch, and those whose state was the label (holds only).
        public var samples: Int
        public var matchingSamples: Int

        public var duration: Double { end - start }
        public var isHold: Bool { label != .stable }
    }

    public struct Result: Hashable, Sendable {
        public var stretches: [Stretch]
        public var violations: [Violation]
        public var changes: Int
        /// Seconds of don't-care stretches (the device moving), and the changes in them
        /// but those that arrive at the next hold's state less than the latency bound
        /// before it begins: a turn reported as it ends belongs to the hold it ends in.
        public var motionSeconds = 0.0
        public var motionChanges = 0
        public var passed: Bool { violations.isEmpty }
        /// The largest latency over the holds that were reached.
        public var worstLatency: Double? { stretches.filter(\.isHold).compactMap(\.latency).max() }
        public var figures: EvaluationFigures { EvaluationFigures(self) }
    }

    /// The latency bound in seconds for a stream at `rate` Hz: 300 ms at 10 Hz and
    /// above; below, three sample intervals (a pose needs two agreeing readings, and the
    /// rotation may end just after a reading).
    public static func defaultLatencyBound(rate: Double?) -> Double {
        guard let rate, rate > 0 else { return 0.3 }
        return max(0.3, 3 / rate)
    }

    public let latencyBound: Double
    /// The state reported before the first sample (the device pose `unknown`).
    private let initial: State
    private let describe: @Sendable (State) -> String

    private struct Pending {
        var label: Label?
        var start: Double
        var end: Double
    }

    private var samples: [(time: Double, label: Label?, state: State)] = []

    public init(latencyBound: Double, initial: State, describe: @escaping @Sendable (State) -> String = { "\($0)" }) {
        self.latencyBound = latencyBound
        self.initial = initial
        self.describe = describe
    }

    /// Records one sample: its time, its label, and the state reported after it.
    public mutating func observe(time: Double, expect: Label?, state: State) {
        samples.append((time, expect, state))
    }

    public func result() -> Result {
        let (stretches, stretchOf) = grouped()
        var walk = Walk(stretches: stretches, latencyBound: latencyBound, describe: describe)
        var previous = initial
        for (index, sample) in samples.enumerated() {
            let i = stretchOf[index]
            walk.observe(sample, in: i, after: previous)
            previous = sample.state
        }
        var result = summary(stretches, walk)
        result.violations.sort { $0.time < $1.time }
        return result
    }

    /// The samples' runs of one label, and each sample's run.
    private func grouped() -> (stretches: [Pending], stretchOf: [Int]) {
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
        return (stretches, stretchOf)
    }

    /// What the walk through the samples found, stretch by stretch.
    private struct Walk {
        let stretches: [Pending]
        let bound: Double
        let name: @Sendable (State) -> String
        var violations: [Violation] = []
        var changes = 0
        var motionChanges = 0
        /// When each hold's label was first reported.
        var reached: [Double?]
        var unsettling: [Int]
        var unstableReported = Set<Int>()
        var counted: [(samples: Int, matching: Int)]

        init(stretches: [Pending], latencyBound: Double, describe: @escaping @Sendable (State) -> String) {
            self.stretches = stretches
            bound = latencyBound
            name = describe
            let count = stretches.count
            reached = Array(repeating: nil, count: count)
            unsettling = Array(repeating: 0, count: count)
            counted = Array(repeating: (samples: 0, matching: 0), count: count)
        }

        /// One sample of stretch `i`, the state before it being `before`.
        mutating func observe(_ s: (time: Double, label: Label?, state: State), in i: Int, after before: State) {
            let stretch = stretches[i]
            counted[i].samples += 1
            if s.state == stretch.label?.state { counted[i].matching += 1 }
            if s.state != before { changed(from: before, to: s.state, at: s.time, in: i) }
            if let wanted = stretch.label?.state, s.state == wanted, reached[i] == nil {
                reached[i] = s.time
            }
        }

        /// A change of the reported state, judged by the rules above.
        private mutating func changed(from before: State, to state: State, at time: Double, in i: Int) {
            let stretch = stretches[i]
            changes += 1
            let next = stretch.label == nil ? stretches[(i + 1)...].first { $0.label != nil } : nil
            let target = stretch.label ?? next?.label
            if stretch.label == nil {
                let endsTurn = next.map { $0.label?.state == state && $0.start - time <= bound + 1e-9 } ?? false
                if !endsTurn { motionChanges += 1 }
            }
            if stretch.label == .stable && time - stretch.start > bound + 1e-9 {
                unsettling[i] += 1
                if unstableReported.insert(i).inserted {
                    let span = "\(formatSeconds(stretch.start))–\(formatSeconds(stretch.end)) s"
                    violations.append(
                        Violation(
                            kind: .unstable, time: time,
                            message: "changed \(name(before)) → \(name(state)) during a stable stretch (\(span))"))
                }
            } else if let wanted = target?.state, state != wanted {
                violations.append(
                    Violation(
                        kind: .spurious, time: time,
                        message: "spurious change \(name(before)) → \(name(state)) (expected \(name(wanted)))"))
                if reached[i] != nil { unsettling[i] += 1 }
            } else if stretch.label?.state != nil, reached[i] != nil {
                unsettling[i] += 1
                if unstableReported.insert(i).inserted {
                    let message = "left and re-entered \(name(state)) within its stretch"
                    violations.append(Violation(kind: .unstable, time: time, message: message))
                }
            }
        }
    }

    /// Each labelled stretch's figures, and the holds missed or reached late.
    private func summary(_ stretches: [Pending], _ walk: Walk) -> Result {
        var violations = walk.violations
        var results: [Stretch] = []
        var motionSeconds = 0.0
        for (i, stretch) in stretches.enumerated() {
            guard let label = stretch.label else {
                motionSeconds += stretch.end - stretch.start
                continue
            }
            let latency: Double? =
                switch label {
                case .stable: min(latencyBound, stretch.end - stretch.start)
                case .state: walk.reached[i].map { $0 - stretch.start }
                }
            results.append(
                Stretch(
                    label: label, start: stretch.start, end: stretch.end, latency: latency,
                    changesAfterSettling: walk.unsettling[i], samples: walk.counted[i].samples,
                    matchingSamples: walk.counted[i].matching))
            guard let wanted = label.state else { continue }
            if let latency {
                if latency > latencyBound + 1e-9 {
                    let late = "\(formatSeconds(latency)) s after its stretch began (bound \(formatSeconds(latencyBound)) s)"
                    violations.append(Violation(kind: .late, time: stretch.start, message: "\(describe(wanted)) reported \(late)"))
                }
            } else {
                let span = "\(formatSeconds(stretch.start))–\(formatSeconds(stretch.end)) s"
                violations.append(
                    Violation(kind: .missed, time: stretch.start, message: "\(describe(wanted)) never reported during its stretch \(span)"))
            }
        }
        return Result(
            stretches: results, violations: violations, changes: walk.changes, motionSeconds: motionSeconds,
            motionChanges: walk.motionChanges)
    }
}

/// Seconds with three decimals, for messages.
func formatSeconds(_ t: Double) -> String {
    var out: [UInt8] = []
    RecordingWriter.appendFixed(t, decimals: 3, to: &out)
    return String(decoding: out, as: UTF8.self)
}
