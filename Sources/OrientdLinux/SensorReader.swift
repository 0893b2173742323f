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
        /// Hz: the polling rate, and the rate the sampling frequency is chosen from.
        public var rate: Double
        /// Force the polled path even when the device could be buffered.
        public var forcePolling: Bool
        /// Wait for a sensor to appear instead of failing when there is none at start.
        public var wait: Bool

        public init(uri: String?, device: String?, mountMatrixOverride: MountMatrix?, rate: Double, forcePolling: Bool, wait: Bool) {
            self.uri = uri
            self.device = device
            self.mountMatrixOverride = mountMatrixOverride
            self.rate = rate
            self.forcePolling = forcePolling
            self.wait = wait
        }
    }

    public let configuration: Configuration
    private let stopSignal: WakeUp

    public init(configuration: Configuration) throws(Errno) {
        self.configuration = configuration
        stopSignal = try WakeUp()
    }

    /// Starts the thread; `handle` is called on it with every event, then `finished`
    /// once the loop and everything it opened (context, buffer, udev monitor) are
    /// closed, so whoever waits for the end can tear down after it.
    public func start(
        _ handle: @escaping @Sendable (SensorEvent) -> Void, finished: @escaping @Sendable () -> Void = {}
    ) {
        let configuration = configuration
        let stopSignal = stopSignal
        BackgroundThread.start {
            var loop = ReadLoop(configuration: configuration, stop: stopSignal.descriptor, emit: handle)
            loop.run()
            withExtendedLifetime(loop) {}
            finished()
        }
    }

    /// Ends the thread at its next wake-up (at once: the signal wakes its poll).
    public func stop() { stopSignal.signal() }
}

/// The thread's state; lives and dies on the sensor thread.
struct ReadLoop {
    let configuration: SensorReader.Configuration
    let stop: Int32
    let emit: (SensorEvent) -> Void
    let start = ReadLoop.monotonic()
    var monitor: UdevMonitor?
    var udev: Udev?
    /// Devices udev reported removed and not added since. The kernel sends the remove
    /// event before the device leaves sysfs, so a look right after can still find it.
    var removedDevices: Set<String> = []

    init(configuration: SensorReader.Configuration, stop: Int32, emit: @escaping (SensorEvent) -> Void) {
        self.configuration = configuration
        self.stop = stop
        self.emit = emit
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    var discovery: AccelerometerDiscovery {
        AccelerometerDiscovery(uri: configuration.uri, mountMatrixOverride: configuration.mountMatrixOverride, rate: configuration.rate)
    }

    mutating func run() {
        if configuration.uri == nil {
            do {
                let udev = try Udev()
                self.udev = udev
                monitor = try UdevMonitor(udev: udev, subsystem: "iio")
            } catch {
                emit(.warning("hot-plug is off: \(error)"))
            }
        }
        var everAttached = false
        var announcedWait = false
        while true {
            let found: [AccelerometerDiscovery.Found]
            do {
                found = try discovery.find().filter { !removedDevices.contains($0.candidate.id) }
            } catch {
                found = []
                if !configuration.wait && !everAttached {
                    emit(.failed("cannot list accelerometers: \(error)"))
                    return
                }
            }
            switch SensorChoice.choose(from: found, candidate: \.candidate, requested: configuration.device) {
            case .success(let chosen):
                announcedWait = false
                everAttached = readUntilLost(chosen) || everAttached
                if isStopped() { return }
            case .failure(let why):
                if !configuration.wait && !everAttached {
                    emit(.failed(found.isEmpty ? "no accelerometer found: looked in \(discovery.searchedPlaces)" : why.description))
                    return
                }
                if !announcedWait {
                    emit(.waiting(found.isEmpty ? "no accelerometer yet; waiting for one to appear" : "\(why); waiting"))
                    announcedWait = true
                }
                guard waitForHotPlug() else { return }
            }
        }
    }

    func isStopped() -> Bool { wait(milliseconds: 0, hotPlug: false).stop }

    /// What woke the thread in `wait`.
    struct Wake {
        /// poll(2)'s result: the number of descriptors ready, 0 on time-out, -1 on error.
        var ready: Int32
        var interrupted: Bool
        var stop: Bool
        var hotPlug: Bool
        /// The data descriptor's returned events.
        var data: Int16
        var timedOut: Bool { ready == 0 }
    }

    /// Waits in poll(2) until the stop signal, the udev monitor (when `hotPlug`) or `data`
    /// is ready, or `milliseconds` pass (-1: no limit). The one place that builds the
    /// descriptors; a tuple rather than an array, as this runs for every sample.
    func wait(milliseconds: Int32, hotPlug: Bool = true, data: Int32? = nil) -> Wake {
        var fds = (
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: hotPlug ? monitor?.descriptor ?? -1 : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: data ?? -1, events: Int16(POLLIN), revents: 0)
        )
        let count: nfds_t = data == nil ? 2 : 3
        let ready = withUnsafeMutableBytes(of: &fds) { bytes in
            // A tuple of three pollfds is laid out as an array of them (homogeneous
            // tuples are), and its buffer is never empty.
            poll(bytes.baseAddress!.assumingMemoryBound(to: pollfd.self), count, milliseconds)
        }
        return Wake(
            ready: ready, interrupted: ready < 0 && errno == EINTR, stop: fds.0.revents != 0, hotPlug: fds.1.revents != 0,
            data: fds.2.revents)
    }

    /// Blocks until udev reports an IIO device added (or, without udev, a few seconds
    /// pass); false when asked to stop.
    mutating func waitForHotPlug() -> Bool {
        guard let monitor else {
            return sleepOrStop(seconds: 2)
        }
        while true {
            let wake = wait(milliseconds: -1)
            if wake.interrupted { continue }
            if wake.stop { return false }
            while let event = monitor.receive() {
                note(event)
                if event.action == .add || event.action == .change { return true }
            }
        }
    }

    func sleepOrStop(seconds: Double) -> Bool {
        wait(milliseconds: Int32(seconds * 1000), hotPlug: false).timedOut
    }

    /// Opens and reads one sensor until it goes away or the thread is stopped.
    /// Returns whether it was attached at all.
    mutating func readUntilLost(_ found: AccelerometerDiscovery.Found) -> Bool {
        let id = found.candidate.id
        let context: IIOContext
        let device: IIODevice
        var info: AccelerometerInfo
        do {
            context = try IIOContext(uri: configuration.uri)
            (info, device) = try discovery.open(found, in: context)
        } catch {
            emit(.lost(device: id, reason: "cannot open: \(error)"))
            _ = sleepOrStop(seconds: 1)
            return false
        }
        if configuration.forcePolling { info.readPath = .polled }
        var reader: BufferedScans?
        if info.readPath == .buffered {
            do {
                reader = try BufferedScans(device: device, rate: info.samplingFrequency ?? configuration.rate)
            } catch {
                emit(.warning("\(id): buffered reading failed (\(error)); polling instead"))
                info.readPath = .polled
            }
        }
        // The polled path's files are open before `attached` is said, so whoever sees it
        // sees the reader as it will stay (the hot-plug test counts descriptors then).
        let axes = reader == nil ? PolledAxes.open(device, syspath: found.udev?.syspath) : nil
        for issue in info.issues { emit(.warning(issue.description)) }
        emit(.attached(info))
        let reason: String? =
            if let reader {
                readBuffered(reader, info: info)
            } else if let axes {
                readPolled(axes, device: device, info: info)
            } else {
                "\(device.id) has no accel_x, accel_y and accel_z channels"
            }
        if let reason { emit(.lost(device: id, reason: reason)) }
        return true
    }

    /// Did udev say our device went away? Drains the monitor, keeping track of what
    /// was removed and added.
    mutating func removed(_ id: String) -> Bool {
        guard let monitor else { return false }
        var gone = false
        while let event = monitor.receive() {
            note(event)
            if event.action == .remove && event.device.sysname == id { gone = true }
        }
        return gone
    }

    mutating func note(_ event: UdevMonitor.Event) {
        switch event.action {
        case .remove: removedDevices.insert(event.device.sysname)
        case .add: removedDevices.remove(event.device.sysname)
        default: break
        }
    }

    /// Polls `in_accel_{x,y,z}_raw` at the configured rate against absolute deadlines.
    /// Returns why it stopped (nil: asked to stop).
    mutating func readPolled(_ axes: PolledAxes, device: IIODevice, info: AccelerometerInfo) -> String? {
        defer { axes.close() }
        let interval = 1 / max(configuration.rate, 0.1)
        var deadline = ReadLoop.monotonic()
        var failures = ReadFailures(interval: interval)
        while true {
            var raw = (x: 0.0, y: 0.0, z: 0.0)
            var readError: IIOError?
            switch axes.read() {
            case .success(let values): raw = values
            case .failure(let error): readError = error
            }
            let now = ReadLoop.monotonic()
            if let readError {
                if readError.isNoDevice { return "\(readError)" }
                if let report = failures.failed(at: now) {
                    emit(.warning(ReadFailures.message(report, error: "\(readError)", device: device.id)))
                }
            } else {
                if let report = failures.succeeded() {
                    emit(.warning(ReadFailures.message(report, error: "", device: device.id)))
                }
                let v = info.calibration.apply(x: raw.x, y: raw.y, z: raw.z)
                emit(.sample(Sample(time: now - start, acceleration: v)))
            }
            // Back off on repeated failures: up to 1 s between attempts.
            let delay = failures.delay
            deadline += delay
            if deadline < now { deadline = now + delay }
            let wake = wait(milliseconds: Int32(max(0, (deadline - ReadLoop.monotonic()) * 1000).rounded(.up)))
            if wake.stop { return nil }
            if wake.hotPlug, removed(device.id) { return "removed" }
        }
    }

    /// Reads scans from the kernel buffer as they come. Returns why it stopped.
    mutating func readBuffered(_ scans: BufferedScans, info: AccelerometerInfo) -> String? {
        var clock = TimestampClock()
        var lastTime = -Double.infinity
        let interval = 1 / (info.samplingFrequency ?? configuration.rate)
        // A buffer that wakes the reader for every scan (one without a working watermark,
        // such as umockdev's) would cost a wake-up per sample; reading at most every
        // `batch` seconds keeps it to the refills a second a real buffer's watermark gives
        // (SamplingFrequency.refillsPerSecond), for at most 50 ms of added delay. Not in
        // the first half second, so the first event still comes as early as it can.
        let batch = min(1 / SamplingFrequency.refillsPerSecond, Double(SamplingFrequency.scansPerRefill(rate: 1 / interval)) * interval)
        let attached = ReadLoop.monotonic()
        var lastRead = -Double.infinity
        // A buffer that stays silent this long is stuck (a hung trigger, a sensor in a
        // bad state): say so once, and again when scans come back.
        let stallAfter = max(2, 20 * interval)
        var lastScan = attached
        var stalled = false
        var bufferFailures = ReadFailures(interval: 0.1)
        while true {
            let now = ReadLoop.monotonic()
            // After waiting out the batch window the scans are most likely there: read at
            // once, without another poll (one system call less per wake-up); if not,
            // poll as usual.
            var readDirectly = false
            if now - attached > 0.5, now - lastRead < batch {
                let wake = wait(milliseconds: Int32(((batch - (now - lastRead)) * 1000).rounded(.up)))
                if wake.stop { return nil }
                if wake.hotPlug, removed(scans.device.id) { return "removed" }
                readDirectly = wake.timedOut
            }
            if !readDirectly {
                let wake = wait(milliseconds: 1000, data: scans.descriptor)
                if wake.interrupted { continue }
                if wake.stop { return nil }
                if wake.hotPlug, removed(scans.device.id) { return "removed" }
                if wake.data & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return "the buffer closed" }
                guard wake.data & Int16(POLLIN) != 0 else {
                    let silence = ReadLoop.monotonic() - lastScan
                    if !stalled, silence >= stallAfter {
                        stalled = true
                        emit(.stalled(device: scans.device.id, seconds: silence))
                    }
                    continue
                }
            }
            lastRead = ReadLoop.monotonic()
            do {
                try scans.read { x, y, z, timestamp in
                    if stalled {
                        // Said before the scans that end the silence are handed on.
                        stalled = false
                        emit(.resumed(device: scans.device.id, afterSeconds: lastRead - lastScan))
                    }
                    let arrival = ReadLoop.monotonic() - start
                    // Without a timestamp channel the scans of one refill arrive together:
                    // space them at the sampling interval rather than give them one time.
                    let time =
                        timestamp.map { clock.time(nanoseconds: $0, arrival: arrival) }
                        ?? max(arrival, lastTime + interval)
                    lastTime = time
                    emit(.sample(Sample(time: time, acceleration: info.calibration.apply(x: Double(x), y: Double(y), z: Double(z)))))
                }
            } catch let error as IIOError where error.code == EAGAIN {
                // Nothing yet: wait in poll(2), where a stall is noticed.
                lastRead = -Double.infinity
                continue
            } catch let error as IIOError where error.isNoDevice {
                return "\(error)"
            } catch {
                // A read error (EIO, a garbled refill): retried with the same back-off
                // and reports as the polled path.
                if let report = bufferFailures.failed(at: ReadLoop.monotonic()) {
                    emit(.warning(ReadFailures.message(report, error: "\(error)", device: scans.device.id)))
                }
                if !sleepOrStop(seconds: bufferFailures.delay) { return nil }
                continue
            }
            if let report = bufferFailures.succeeded() {
                emit(.warning(ReadFailures.message(report, error: "", device: scans.device.id)))
            }
            lastScan = lastRead
        }
    }
}

/// Maps a buffer's timestamp channel (nanoseconds on the device's clock, which may be
/// the realtime clock) onto the run's monotonic seconds: the first timestamp is pinned to
/// its arrival and later ones keep the device's spacing, so jitter in delivery does not
/// become jitter in time. A jump of over a second (a clock change) pins it again.
struct TimestampClock {
    private var anchor: (device: Int64, run: Double)?
    private var last = -Double.infinity

    mutating func time(nanoseconds: Int64, arrival: Double) -> Double {
        if let anchor {
            let t = anchor.run + Double(nanoseconds &- anchor.device) / 1e9
            if abs(t - arrival) <= 1, t >= last {
                last = t
                return t
            }
        }
        anchor = (nanoseconds, arrival)
        last = max(last, arrival)
        return last
    }
}
