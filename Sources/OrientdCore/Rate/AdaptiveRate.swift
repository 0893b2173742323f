/// Which samples to read: all of them while the device moves, one every
/// `restInterval` while it is still, or, on a sensor that watches for motion itself (a
/// HID sensor hub given a change sensitivity), only those it sends while it is still: one
/// that moved by more than `changeSensitivity` on an axis since the last one it sent.
///
/// The schedule belongs to the source, before the classifier: the live reader asks it
/// when to read next (and lowers the sensor's own rate while at rest), and a replay
/// skips the samples the live daemon would not have read, so the events of a replay are
/// the events of the live daemon. Deterministic: it reads time only from the samples.
///
/// The motion test compares each reading with an *anchor*, the last reading that counted
/// as motion (at rest: the one the rest began with), not with the reading before it, so
/// a turn slower than the threshold per sample still adds up to motion.
public struct AdaptiveRate: Sendable {
    /// How the sensor is read right now.
    public enum Pace: String, Hashable, Sendable {
        /// Every sample the source gives.
        case full
        /// One sample every rest interval.
        case rest
        /// Still, on a sensor that watches for motion: only the samples it sends, those
        /// that moved by more than its change sensitivity.
        case watch
    }

    /// The state, with what each one needs.
    enum Phase: Hashable, Sendable {
        /// Nothing read yet.
        case start
        /// Every sample is read; the last motion was at `lastMotion`.
        case full(lastMotion: Double)
        /// At rest; the next reading is the grid's `due`, or up to `slack` before it.
        case rest(due: Double)
        /// At rest on a sensor that watches: the last sample it sent, and when.
        case watch(reference: Vector3, last: Double)
    }

    public let parameters: AdaptiveRateParameters
    /// Whether the sensor is given a change sensitivity at rest (it offers one, and
    /// `changeSensitivity` is not 0).
    public private(set) var watches: Bool
    private(set) var phase = Phase.start {
        didSet { due = if case .rest(let due) = phase { due - slack } else { nil } }
    }
    private var anchor = Vector3.zero

    /// `sensorWatches`: the sensor offers a change sensitivity (`in_accel_hysteresis`), or a
    /// replay plays as on one.
    public init(parameters: AdaptiveRateParameters = AdaptiveRateParameters(), sensorWatches: Bool = false) {
        self.parameters = parameters
        watches = sensorWatches && parameters.enabled && parameters.changeSensitivity > 0
    }

    /// What `admit` decided about one sample.
    public enum Decision: Hashable, Sendable {
        /// Not read: at rest, before the next reading is due.
        case skip
        /// Read at rest, and nothing moved: the classifier is not given it. No pose
        /// changes without motion, and a lone reading every rest interval, unfiltered,
        /// would only let the sensor's noise (or a hand's tremor) decide near a boundary.
        case still
        /// Read and classified; the pace changes to `paceChange` from the next sample on.
        case classify(paceChange: Pace?)

        public var isRead: Bool { self != .skip }
        public var paceChange: Pace? {
            if case .classify(let change) = self { change } else { nil }
        }
        public var isClassified: Bool {
            if case .classify = self { true } else { false }
        }
    }

    public var pace: Pace {
        switch phase {
        case .start, .full: .full
        case .rest: .rest
        case .watch: .watch
        }
    }

    /// At rest, the earliest time the next sample is read (a polled reader reads then,
    /// so it reads what a replay of its samples reads); nil at the full rate (every
    /// sample as it comes) and when the schedule is off. Kept as the phase changes, not
    /// computed: the polled loop reads it at every sample, and a call on this struct from
    /// another module copies the whole of it first.
    public private(set) var due: Double?

    /// A quarter interval early still counts: a sensor slowed to the rest rate sends on
    /// its own clock, and a sample just before the grid's time must not cost a whole
    /// interval.
    private var slack: Double { parameters.restInterval / 4 }

    /// Decides whether `sample` is read and moves the schedule on. A sample from before
    /// the last one read is read, and brings the full rate back.
    public mutating func admit(_ sample: Sample) -> Decision {
        guard parameters.enabled else { return .classify(paceChange: nil) }
        let t = sample.time
        let a = sample.acceleration
        switch phase {
        case .start:
            anchor = a
            phase = .full(lastMotion: t)
            return .classify(paceChange: nil)
        case .full(let lastMotion):
            if isMotion(a) || t < lastMotion {
                anchor = a
                phase = .full(lastMotion: t)
                return .classify(paceChange: nil)
            }
            guard t - lastMotion >= parameters.restAfter else { return .classify(paceChange: nil) }
            if watches {
                phase = .watch(reference: a, last: t)
                return .classify(paceChange: .watch)
            }
            phase = .rest(due: t + parameters.restInterval)
            return .classify(paceChange: .rest)
        case .rest(let due):
            // Before the last reading: the clock went back (a recording's, a restarted
            // sensor's), so nothing can be known from `due`.
            let wentBack = t < due - parameters.restInterval - slack
            guard t >= due - slack || wentBack else { return .skip }
            if isMotion(a) || wentBack {
                anchor = a
                phase = .full(lastMotion: t)
                return .classify(paceChange: .full)
            }
            // On the grid that began with the rest, unless this sample came late (a
            // sensor's own clock, a gap): then from it.
            phase = .rest(due: max(due + parameters.restInterval, t + parameters.restInterval - slack))
            return .still
        case .watch(let reference, let last):
            // The sensor sends only what moved past its sensitivity since it last sent; a
            // sample that did not (one sent before the sensitivity was set, the answer to
            // a read) is one it would not have sent.
            let wentBack = t < last
            guard wentBack || moved(a, from: reference) else { return .skip }
            if isMotion(a) || wentBack {
                anchor = a
                phase = .full(lastMotion: t)
                return .classify(paceChange: .full)
            }
            phase = .watch(reference: a, last: t)
            return .still
        }
    }

    /// The sensor's own test: an axis moved by more than its sensitivity. Per axis, as a
    /// HID sensor hub's firmware compares each data field with the value it last sent.
    private func moved(_ a: Vector3, from reference: Vector3) -> Bool {
        let s = parameters.changeSensitivity
        return abs(a.x - reference.x) > s || abs(a.y - reference.y) > s || abs(a.z - reference.z) > s
    }

    private func isMotion(_ a: Vector3) -> Bool {
        (a - anchor).squaredLength > parameters.motionThreshold * parameters.motionThreshold
    }

    /// The sensor would not take its change sensitivity: rest at the rest rate instead,
    /// from the last reading on.
    public mutating func stopWatching() {
        watches = false
        if case .watch(_, let last) = phase { phase = .rest(due: last + parameters.restInterval) }
    }

    /// The same sensor read again after a pause, or another one: the schedule starts
    /// afresh, at the full rate.
    public mutating func restart() {
        phase = .start
    }
}
