/// What the sensor thread tells the rest of the daemon. `Sensor` is what the thread
/// knows of a sensor it opens (OrientdLinux's `AccelerometerInfo`); the service needs
/// only its `SensorAttachment` (`map(_:)`) and decides what each event means
/// (`OrientationService.apply(_:)`).
public enum SensorEvent<Sensor: Sendable>: Sendable {
    /// A sensor was opened and is being read. Boxed: the sensor's description is large,
    /// and every event a reader made on its stack took its size, at each call site (the
    /// buffered read loop's three frames: 16.5 KiB, 10 boxed).
    indirect case attached(Sensor)
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
    case reading(device: String, read: SensorReadPath, because: String? = nil, time: Double? = nil)
    /// No sensor yet; the thread waits for one to appear (`--wait`).
    case waiting(String)
    /// Something odd but not fatal: a bad attribute, a read error that was retried.
    case warning(String)
    /// No sensor and not waiting: the run cannot go on.
    case failed(String)

    /// The same event, with `transform` applied to an attached sensor.
    public func map<Other: Sendable>(_ transform: (Sensor) -> Other) -> SensorEvent<Other> {
        switch self {
        case .attached(let sensor): .attached(transform(sensor))
        case .sample(let sample): .sample(sample)
        case .still(let sample): .still(sample)
        case .pace(let device, let pace, let hz): .pace(device: device, pace, hz: hz)
        case .lost(let device, let reason): .lost(device: device, reason: reason)
        case .stalled(let device, let seconds, let time): .stalled(device: device, seconds: seconds, time: time)
        case .hung(let device, let seconds, let time): .hung(device: device, seconds: seconds, time: time)
        case .resumed(let device, let seconds, let time): .resumed(device: device, afterSeconds: seconds, time: time)
        case .idle(let device): .idle(device: device)
        case .reading(let device, let read, let because, let time): .reading(device: device, read: read, because: because, time: time)
        case .waiting(let message): .waiting(message)
        case .warning(let message): .warning(message)
        case .failed(let message): .failed(message)
        }
    }
}
