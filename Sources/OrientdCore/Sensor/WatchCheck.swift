/// The check of a buffered sensor that watches for motion at rest (`AdaptiveRate`'s
/// watch): it sends nothing while nothing moves, so its silence proves nothing, and its
/// reader asks it for a reading every `interval` to know it still answers. A check left
/// unanswered (no reading, or one slower than `BufferSilence.hungAfter`) lets the silence
/// run on to a stall (`BufferSilence`) until scans come or the pace changes. Times in
/// seconds on one clock; no I/O (`BufferedReading` reads the attribute).
public struct WatchCheck: Sendable, Equatable {
    /// How often the sensor is asked: each check costs a few wake-ups, so this bounds a
    /// still device's (at most 0.1 a second with systemd's watchdog), and a
    /// sensor that died at rest is found within it.
    public static let interval = 60.0

    /// When the sensor is next asked; infinity while it does not watch.
    public private(set) var next = Double.infinity
    /// The last check went unanswered: the silence is the sensor's again.
    public private(set) var isUnanswered = false

    public init() {}

    /// What a poll that found the buffer silent at `now` means.
    public enum Silence: Equatable, Sendable {
        /// Nothing it should have sent: the silence counts from now
        /// (`BufferSilence.excuse`).
        case expected
        /// A check is due: excuse the silence until now, ask the sensor for a reading,
        /// and say how that went (`asked(answered:from:to:)`).
        case ask
        /// The silence is the sensor's: not watching, stalled, or a check unanswered.
        case counts
    }

    /// How to take a silent poll at `now`, the reader `watching` (its pace is the watch),
    /// the buffer `stalled` (`BufferSilence.isStalled`), `canAsk` whether there is an
    /// attribute to read (a local sensor; a remote one is never asked).
    public func silence(at now: Double, watching: Bool, stalled: Bool, canAsk: Bool) -> Silence {
        guard watching, !stalled, !isUnanswered else { return .counts }
        return now >= next && canAsk ? .ask : .expected
    }

    /// A check asked at `asked` came back at `returned`, with a reading or not; true when
    /// it counts as an answer (a read that took `BufferSilence.hungAfter` or more is a
    /// hung sensor's, which the HID driver answers with 0 after its time-outs). The next
    /// is one interval after it returned.
    public mutating func asked(answered: Bool, from asked: Double, to returned: Double) -> Bool {
        next = returned + Self.interval
        let inTime = answered && returned - asked < BufferSilence.hungAfter
        if !inTime { isUnanswered = true }
        return inTime
    }

    /// Scans came: the sensor answers.
    public mutating func scansCame() {
        isUnanswered = false
    }

    /// The reader's pace changed at `now`: a sensor set to watch is first asked one
    /// interval later; at any other pace it sends, and is never asked.
    public mutating func paceChanged(to pace: AdaptiveRate.Pace, at now: Double) {
        next = pace == .watch ? now + Self.interval : .infinity
        isUnanswered = false
    }
}
