/// When the buffered reader reads and how long it waits in between (`BufferedReading`),
/// from plain times, so the rules are tested without a kernel. Times are seconds on the
/// monotonic clock; waits are poll(2)'s milliseconds.
public enum BufferWaits {
    /// The buffer wakes the reader for every scan (its watermark is 1, which the rest pace
    /// needs), which would cost a wake-up per sample: at the full pace it is read at most
    /// every `batch` seconds, for at most 50 ms of added delay.
    public static let batch = 1 / SamplingFrequency.readsPerSecond
    /// No batching in the first half second after the buffer is opened, so the first
    /// event comes as early as it can.
    public static let unbatchedStart = 0.5

    /// What the reader does before it polls the buffer.
    public enum Before: Equatable, Sendable {
        /// Poll the buffer now.
        case poll
        /// At rest on a sensor that sends faster than the rest rate: sleep until `at`,
        /// one of its periods after the reading is due (a scan from after it is then in
        /// the buffer), then read without polling; at once if `at` has passed.
        case readRestReading(at: Double)
        /// At the full pace, read within the batch window: wait until `until`; read
        /// without polling if nothing else woke the thread meanwhile.
        case batch(until: Double)
    }

    /// The state of the reader a decision depends on.
    public struct Reader: Equatable, Sendable {
        /// When the adaptive rate's next rest reading is due (`AdaptiveRate.due`, on the
        /// monotonic clock); nil when not at rest.
        public var restReadingDue: Double?
        /// The sensor's sampling period now.
        public var period: Double
        /// Whether it sends faster than the rest rate (`SensorRate`).
        public var sendsFasterThanRest: Bool
        /// The last read found nothing: the next waits in poll(2) for data.
        public var drained: Bool
        public var pace: AdaptiveRate.Pace
        /// When the buffer was opened, and last read.
        public var opened: Double
        public var lastRead: Double
        /// The buffer is stalled (`BufferSilence`), or a watched sensor left a check
        /// unanswered: the silence is checked every 0.1 s.
        public var silent: Bool
        /// While watching: when the sensor is next asked for a reading.
        public var nextCheck: Double

        public init(
            restReadingDue: Double?, period: Double, sendsFasterThanRest: Bool, drained: Bool, pace: AdaptiveRate.Pace,
            opened: Double, lastRead: Double, silent: Bool, nextCheck: Double
        ) {
            self.restReadingDue = restReadingDue
            self.period = period
            self.sendsFasterThanRest = sendsFasterThanRest
            self.drained = drained
            self.pace = pace
            self.opened = opened
            self.lastRead = lastRead
            self.silent = silent
            self.nextCheck = nextCheck
        }
    }

    /// What to do at `now` before polling the buffer.
    public static func before(_ reader: Reader, now: Double) -> Before {
        if let due = reader.restReadingDue, reader.sendsFasterThanRest, !reader.drained {
            return .readRestReading(at: due + reader.period)
        }
        if reader.pace == .full, now - reader.opened > unbatchedStart, now - reader.lastRead < batch {
            return .batch(until: reader.lastRead + batch)
        }
        return .poll
    }

    /// How long poll(2) waits for the buffer at `now`: the silence is checked each time
    /// the wait runs out, every second, and every 0.1 s while silent (to act on a rate
    /// write's end and give the buffer up on time); watching, nothing is due before the
    /// next check (at least 1 ms, at most an hour).
    public static func pollTimeout(_ reader: Reader, now: Double) -> Int32 {
        if reader.silent { return 100 }
        if reader.pace == .watch { return Int32(min(max((reader.nextCheck - now) * 1000, 1), 3_600_000).rounded(.up)) }
        return 1000
    }

    /// A wait of `timeout` ms, begun at `asked`, that ends more than 2 s late at `now`
    /// means the process did not run: frozen for a suspend (whose drivers took 15 s on
    /// the real kernel) or stopped. The sensor was asleep too; its silence counts from
    /// `now` (`BufferSilence.woke`).
    public static func slept(asked: Double, timeout: Int32, now: Double) -> Bool {
        now - asked > Double(timeout) / 1000 + 2
    }

    /// poll(2)'s wait from `now` until `deadline`, rounded up to a millisecond (the polled reader's too).
    public static func milliseconds(from now: Double, until deadline: Double) -> Int32 {
        Int32(((deadline - now) * 1000).rounded(.up))
    }
}
