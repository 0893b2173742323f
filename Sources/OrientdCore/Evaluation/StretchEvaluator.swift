/// Judges a stream of reported states against the labels of a recording. It is the
/// oracle of the replay tests, of `orientd evaluate` and of its figures; `LabelEvaluator`
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
        var previous = initial
        var reached: [Double?] = Array(repeating: nil, count: stretches.count)
        var unsettling = Array(repeating: 0, count: stretches.count)
        var unstableReported = Set<Int>()
        var counted = Array(repeating: (samples: 0, matching: 0), count: stretches.count)
        var motionChanges = 0

        func nextLabelled(after index: Int) -> Pending? {
            stretches[(index + 1)...].first { $0.label != nil }
        }
        func name(_ state: State) -> String { describe(state) }

        for (sampleIndex, s) in samples.enumerated() {
            let i = stretchOf[sampleIndex]
            let stretch = stretches[i]
            counted[i].samples += 1
            if s.state == stretch.label?.state { counted[i].matching += 1 }
            if s.state != previous {
                let before = previous
                changes += 1
                let next = stretch.label == nil ? nextLabelled(after: i) : nil
                let target = stretch.label ?? next?.label
                if stretch.label == nil {
                    let endsTurn = next.map { $0.label?.state == s.state && $0.start - s.time <= latencyBound + 1e-9 } ?? false
                    if !endsTurn { motionChanges += 1 }
                }
                let settled = stretch.label == .stable && s.time - stretch.start > latencyBound + 1e-9
                if settled {
                    unsettling[i] += 1
                    if unstableReported.insert(i).inserted {
                        violations.append(
                            Violation(
                                kind: .unstable, time: s.time,
                                message:
                                    "changed \(name(before)) → \(name(s.state)) during a stable stretch (\(formatSeconds(stretch.start))–\(formatSeconds(stretch.end)) s)"
                            ))
                    }
                } else if let wanted = target?.state, s.state != wanted {
                    violations.append(
                        Violation(
                            kind: .spurious, time: s.time,
                            message: "spurious change \(name(before)) → \(name(s.state)) (expected \(describe(wanted)))"))
                    if reached[i] != nil { unsettling[i] += 1 }
                } else if stretch.label?.state != nil, reached[i] != nil {
                    unsettling[i] += 1
                    if unstableReported.insert(i).inserted {
                        violations.append(
                            Violation(kind: .unstable, time: s.time, message: "left and re-entered \(name(s.state)) within its stretch"))
                    }
                }
            }
            previous = s.state
            if let wanted = stretch.label?.state, s.state == wanted, reached[i] == nil {
                reached[i] = s.time
            }
        }

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
                case .state: reached[i].map { $0 - stretch.start }
                }
            results.append(
                Stretch(
                    label: label, start: stretch.start, end: stretch.end, latency: latency,
                    changesAfterSettling: unsettling[i], samples: counted[i].samples, matchingSamples: counted[i].matching))
            guard let wanted = label.state else { continue }
            if let latency {
                if latency > latencyBound + 1e-9 {
                    violations.append(
                        Violation(
                            kind: .late, time: stretch.start,
                            message:
                                "\(describe(wanted)) reported \(formatSeconds(latency)) s after its stretch began (bound \(formatSeconds(latencyBound)) s)"
                        ))
                }
            } else {
                violations.append(
                    Violation(
                        kind: .missed, time: stretch.start,
                        message:
                            "\(describe(wanted)) never reported during its stretch \(formatSeconds(stretch.start))–\(formatSeconds(stretch.end)) s"
                    ))
            }
        }
        violations.sort { $0.time < $1.time }
        return Result(
            stretches: results, violations: violations, changes: changes, motionSeconds: motionSeconds, motionChanges: motionChanges)
    }
}

/// Seconds with three decimals, for messages.
func formatSeconds(_ t: Double) -> String {
    var out: [UInt8] = []
    RecordingWriter.appendFixed(t, decimals: 3, to: &out)
    return String(decoding: out, as: UTF8.self)
}
