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
    /// The sensor came to `state` (any but `attached`, said above with the sensor), at
    /// `time` in seconds on the samples' clock, or nil: when it was last read. Boxed, as
    /// `attached`: a state is rare, and unboxed it would double every sample's event.
    case changed(SensorState, device: String, time: Double? = nil)
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
        case .changed(let state, let device, let time): .changed(state, device: device, time: time)
        case .waiting(let message): .waiting(message)
        case .warning(let message): .warning(message)
        case .failed(let message): .failed(message)
        }
    }
}
