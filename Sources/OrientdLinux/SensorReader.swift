import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the chosen accelerometer on a thread of its own and reports everything as
/// `SensorEvent`s: discovery, opening, samples, loss and return (hot-plug).
///
/// The thread blocks in poll(2) on the buffer (or until the next polling deadline), the
/// udev monitor and a stop signal (`WakeUp`), so it wakes only for data, hot-plug or stop: no busy
/// loop, also while it waits for a sensor to appear.
public struct SensorReader: Sendable {
    public struct Configuration: Sendable {
        /// A libiio URI for a remote board; nil for this machine.
        public var uri: String?
        /// `--device`: an id, name or label.
        public var device: String?
        public var mountMatrixOverride: MountMatrix?
        /// Hz: the polling rate, and the rate the sampling frequency is chosen from,
        /// while the device moves.
        public var rate: Double
        /// When to read slower (`AdaptiveRate`).
        public var adaptiveRate: AdaptiveRateParameters
        /// Force the polled path even when the device could be buffered.
        public var forcePolling: Bool
        /// Wait for a sensor to appear instead of failing when there is none at start.
        public var wait: Bool
        /// Which sensor: the display's (chosen by `device`, else as `SensorChoice` says)
        /// or a convertible's base (`SensorSource` waits for it: most machines have none).
        public var location: SensorLocation
        /// The monotonic time samples count from; nil: the thread's start. Two readers
        /// whose samples are paired (display and base) share one.
        public var origin: Double?

        public init(
            uri: String?, device: String?, mountMatrixOverride: MountMatrix?, rate: Double,
            adaptiveRate: AdaptiveRateParameters = AdaptiveRateParameters(), forcePolling: Bool, wait: Bool,
            location: SensorLocation = .display, origin: Double? = nil
        ) {
            self.uri = uri
            self.device = device
            self.mountMatrixOverride = mountMatrixOverride
            self.rate = rate
            self.adaptiveRate = adaptiveRate
            self.forcePolling = forcePolling
            self.wait = wait
            self.location = location
            self.origin = origin
        }
    }

    public let configuration: Configuration
    private let stopSignal: WakeUp
    private let gate: ReadingGate

    /// `reading`: whether the sensor is read from the start (`setReading`).
    public init(configuration: Configuration, reading: Bool = true) throws(Errno) {
        self.configuration = configuration
        stopSignal = try WakeUp()
        gate = try ReadingGate(open: reading)
    }

    /// Starts the thread; `handle` is called on it with every event, then `finished`
    /// once the loop and everything it opened (context, buffer, udev monitor) are
    /// closed, so whoever waits for the end can tear down after it. Throws, calling
    /// neither, when no thread can be made.
    public func start(
        _ handle: @escaping @Sendable (SensorEvent<AccelerometerInfo>) -> Void, finished: @escaping @Sendable () -> Void = {}
    ) throws(BackgroundThread.Refusal) {
        let configuration = configuration
        let stopSignal = stopSignal
        let gate = gate
        try BackgroundThread.start(name: "sensor-\(configuration.location.rawValue)") {
            var loop = ReadLoop(configuration: configuration, stop: stopSignal, gate: gate, emit: handle)
            loop.run()
            withExtendedLifetime(loop) {}
            finished()
        }
    }

    /// Reads the sensor, or stops reading it while keeping it attached (`ReadingDemand`):
    /// the thread acts at once, and says so with `idle` and `reading` events. Hot-plug
    /// is still followed while idle.
    public func setReading(_ reading: Bool) { gate.set(reading) }

    /// Ends the thread at its next wake-up (at once: the signal wakes its poll).
    public func stop() { stopSignal.signal() }
}
