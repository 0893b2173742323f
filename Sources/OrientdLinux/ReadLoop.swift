import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The sensor thread's state; lives and dies on that thread. This file finds a sensor,
/// waits for one to appear and notices it go (udev); reading it is in
/// `ReadLoop+Polled.swift` and `ReadLoop+Buffered.swift`.
struct ReadLoop {
    let configuration: SensorReader.Configuration
    let stop: WakeUp
    let emit: (SensorEvent) -> Void
    let start: Double
    var monitor: UdevMonitor?
    var udev: Udev?
    /// Devices udev reported removed and not added since. The kernel sends the remove
    /// event before the device leaves sysfs, so a look right after can still find it.
    var removedDevices: Set<String> = []

    init(configuration: SensorReader.Configuration, stop: WakeUp, emit: @escaping (SensorEvent) -> Void) {
        self.configuration = configuration
        self.stop = stop
        self.emit = emit
        start = configuration.origin ?? ReadLoop.monotonic()
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
            switch choose(from: found) {
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

    func isStopped() -> Bool { stop.isSignalled }

    private func choose(from found: [AccelerometerDiscovery.Found]) -> Result<AccelerometerDiscovery.Found, SensorChoice.Failure> {
        guard configuration.location == .base else {
            return SensorChoice.choose(from: found, candidate: \.candidate, requested: configuration.device)
        }
        return SensorChoice.chooseBase(from: found, candidate: \.candidate).map { .success($0) }
            ?? .failure(SensorChoice.Failure(description: "no base accelerometer"))
    }

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

    /// Waits in poll(2) until the stop signal, the udev monitor or `data` is ready, or
    /// `milliseconds` pass (-1: no limit). The one place that builds the descriptors; a
    /// tuple rather than an array, as this runs for every sample.
    func wait(milliseconds: Int32, data: Int32? = nil) -> Wake {
        var fds = (
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: monitor?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
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

    /// Sleeps `seconds`; false when asked to stop meanwhile.
    func sleepOrStop(seconds: Double) -> Bool { !stop.wait(seconds: seconds) }

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
}
