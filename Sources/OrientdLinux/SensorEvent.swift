import OrientdCore

/// What the sensor thread tells the rest of the daemon.
public enum SensorEvent: Sendable {
    /// A sensor was opened and is being read.
    case attached(AccelerometerInfo)
    /// A reading in m/s², calibrated but before the mount matrix; `time` in seconds on
    /// the monotonic clock from the start of the run.
    case sample(Sample)
    /// A reading at rest that showed no motion (`AdaptiveRate.Decision.still`): not for
    /// the classifier, but a convertible's hinge angle pairs it with the other sensor's.
    case still(Sample)
    /// The adaptive rate changed pace; `hz`: the rate the sensor is read at now (polled)
    /// or sends at (buffered).
    case pace(device: String, AdaptiveRate.Pace, hz: Double)
    /// The sensor went away or failed; the thread looks for it (or another) again.
    case lost(device: String, reason: String)
    /// A buffered sensor has sent nothing for `seconds` (its stream is stuck), said at
    /// `time` (seconds on the samples' clock); the thread sees to it (`BufferSilence`).
    case stalled(device: String, seconds: Double, time: Double)
    /// A stalled sensor answers no request either: a write of its rate has waited
    /// `BufferSilence.hungAfter`; silent for `seconds`, said at `time`.
    case hung(device: String, seconds: Double, time: Double)
    /// A stalled sensor sends again (its buffer, after polled reading meanwhile).
    case resumed(device: String, afterSeconds: Double, time: Double)
    /// The sensor is no longer read: nothing consumes the events (`setReading(false)`).
    /// A buffered sensor's buffer is disabled, so the driver can power it down.
    case idle(device: String)
    /// The sensor is read again after `idle`, by `read`; or, `because` of a dead buffer
    /// or its return, read another way from `time` (seconds on the samples' clock).
    case reading(device: String, read: AccelerometerInfo.ReadPath, because: String? = nil, time: Double? = nil)
    /// No sensor yet; the thread waits for one to appear (`--wait`).
    case waiting(String)
    /// Something odd but not fatal: a bad attribute, a read error that was retried.
    case warning(String)
    /// No sensor and not waiting: the run cannot go on.
    case failed(String)
}
