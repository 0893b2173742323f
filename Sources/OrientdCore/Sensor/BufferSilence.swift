/// A buffered sensor's silence, and what its reader does about it: after 2 s
/// (or 20 sampling periods) without a scan it is `stalled` and its settings are applied
/// again, as a sensor that lost them (a hub reset, a resume) sends nothing until told;
/// if that brings nothing within 1 s (or 10 periods), the buffer is given up and the
/// sensor read polled, and the buffer tried again after 10 s, then 20, 40 and every 60 s,
/// each try given the same short while. A sensor that does not take its settings (the
/// write fails: a hung sensor, whose reads would hang as well) keeps its buffer, which
/// sends as soon as the sensor does, and is given them again on the same schedule; a
/// write still waiting after 1 s makes it `hung`, said once an episode.
/// Times in seconds on one clock; no I/O.
public struct BufferSilence: Sendable, Equatable {
    /// What the reader does now.
    public enum Step: Equatable, Sendable {
        case wait
        /// Say the sensor stalled (silent for `seconds`) and apply its settings again
        /// (then `applied`).
        case stall(seconds: Double)
        /// Apply its settings again, which it did not take last time (then `applied`).
        case reapply
        /// Say the sensor answers nothing (silent for `seconds`): the write of its
        /// settings has waited `hungAfter`, where a live sensor takes milliseconds.
        case hung(seconds: Double)
        /// Give the buffer up for now: silent since `since`, which a retry carries on.
        case giveUp(since: Double)
    }

    /// How long a write of the settings may wait before the sensor is called hung: a
    /// live sensor's takes milliseconds (HID hub on the real kernel, under TCG: < 10 ms),
    /// a hung one's waits on the driver's time-outs (5 s a request on a HID hub).
    public static let hungAfter = 1.0

    /// What the log says when the sensor `device` is hung, silent for `seconds`.
    public static func hungWarning(_ device: String, seconds: Double) -> String {
        "\(device) answers nothing: no scan for \(JSONLineWriter.number(seconds, decimals: 1)) s, and a write of its "
            + "sampling frequency has waited \(JSONLineWriter.number(hungAfter, decimals: 0)) s; waiting for it to send"
    }

    /// When the buffer last sent (the episode's start while stalled).
    public private(set) var lastScan: Double
    public private(set) var isStalled: Bool
    /// Buffers given up in this episode so far.
    public private(set) var givenUp: Int
    /// When the settings were applied again, or the buffer made again for a retry.
    private var remedied: Double?
    /// Tries in a row at applying the settings that the sensor did not take, and when
    /// to try again.
    public private(set) var untaken = 0
    private var nextTry: Double?
    /// When the write of the settings now under way began.
    private var writing: Double?
    /// Whether this episode's `hung` has been said.
    public private(set) var isHung = false

    /// A buffer that has just been made (or starts again after a pause: a pause is no
    /// silence).
    public init(now: Double) {
        lastScan = now
        isStalled = false
        givenUp = 0
    }

    /// A buffer made again after it was given up `givenUp` times, silent since `since`,
    /// waited on `waiting` seconds before the usual grace.
    public init(retrying since: Double, givenUp: Int, now: Double, waiting: Double = 0) {
        lastScan = since
        isStalled = true
        self.givenUp = givenUp
        remedied = now + waiting
    }

    /// Scans came at `now`: the silence it ends, in seconds, when it was a stall. Called
    /// for every scan: all but the first after a stall only move `lastScan`.
    public mutating func scan(at now: Double) -> Double? {
        guard isStalled else {
            lastScan = now
            return nil
        }
        defer {
            lastScan = now
            isStalled = false
            givenUp = 0
            remedied = nil
            untaken = 0
            nextTry = nil
            writing = nil
            isHung = false
        }
        return now - lastScan
    }

    /// The sensor is not expected to send until `now`: it watches for motion and nothing
    /// moved, and its last check found it answering. Its silence counts from now.
    public mutating func excuse(at now: Double) {
        guard !isStalled else { return }
        lastScan = max(lastScan, now)
    }

    /// The process did not run until `now` (frozen for a suspend, stopped): the sensor
    /// slept too, and its silence counts from now.
    public mutating func woke(at now: Double) {
        lastScan = now
        if remedied != nil { remedied = now }
        if writing != nil { writing = now }
    }

    /// Still nothing at `now`, the sensor sending at `rate` Hz.
    public mutating func check(now: Double, rate: Double) -> Step {
        let silence = now - lastScan
        if !isStalled {
            guard silence >= max(2, 20 / rate) else { return .wait }
            isStalled = true
            writing = now
            return .stall(seconds: silence)
        }
        if let writing {
            guard !isHung, now - writing >= Self.hungAfter else { return .wait }
            isHung = true
            return .hung(seconds: silence)
        }
        if let nextTry {
            guard now >= nextTry else { return .wait }
            self.nextTry = nil
            writing = now
            return .reapply
        }
        guard let remedied, now - remedied >= max(1, 10 / rate) else { return .wait }
        givenUp += 1
        self.remedied = nil
        return .giveUp(since: lastScan)
    }

    /// The settings were applied again at `now` (after `.stall` or `.reapply`): taken (or
    /// none to take), or not, `refused` saying why. Until then the buffer is not given up.
    /// Nothing when the stall ended meanwhile. The warning to log: the first write an
    /// episode's sensor does not take is said; the tries after it fail alike and are not.
    public mutating func applied(at now: Double, refused: String? = nil) -> String? {
        guard isStalled else { return nil }
        writing = nil
        guard let refused else {
            untaken = 0
            nextTry = nil
            remedied = now
            return nil
        }
        untaken += 1
        remedied = nil
        nextTry = now + Self.retryDelay(givenUp: untaken)
        guard untaken == 1 else { return nil }
        return "\(refused): the sensor answers nothing; waiting for it to send, and writing its rate again now and then"
    }

    /// How long to read polled before trying the buffer again, after it was given up
    /// `givenUp` times in a row.
    public static func retryDelay(givenUp: Int) -> Double {
        min(60, 10 * Double(1 << min(max(givenUp - 1, 0), 6)))
    }
}
