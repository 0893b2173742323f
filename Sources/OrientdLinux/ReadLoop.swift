import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The sensor thread's state; lives and dies on that thread. This file finds a sensor,
/// waits for one to appear and notices it go (udev); reading it is in
/// `ReadLoop+Polled.swift` and `BufferedReading.swift`.
struct ReadLoop {
    let configuration: SensorReader.Configuration
    let stop: WakeUp
    /// Whether to read the sensor now, and the doorbell that says it changed.
    let gate: ReadingGate
    let emit: (SensorEvent<AccelerometerInfo>) -> Void
    let start: Double
    var monitor: UdevMonitor?
    var udev: Udev?
    /// With udev: the devices there at the first look and those udev has announced since,
    /// less those it said were removed; only these are opened. udev announces a device
    /// once its rules and RUN programs are done (the chgrp that lets orientd set the buffer
    /// up), after its database already says initialized, so a device in sysfs that is not
    /// announced yet waits for its event; and the kernel's remove comes before the device
    /// leaves sysfs. Each is kept with its `USEC_INITIALIZED`, new for every plug, so a
    /// sensor plugged again under its old name is opened only once announced anew.
    var announced: [String: String]?
    /// The `ACCEL_MOUNT_MATRIX` udev gave the device being read when it was opened.
    var mountMatrixProperty: String?
    /// Rings when the system resumes, so a reader waiting a minute on a silent sensor
    /// looks at it then (`BufferedReading`); nil when it could not be made.
    var resume: ResumeAlarm?

    init(
        configuration: SensorReader.Configuration, stop: WakeUp, gate: ReadingGate, emit: @escaping (SensorEvent<AccelerometerInfo>) -> Void
    ) {
        self.configuration = configuration
        self.stop = stop
        self.gate = gate
        self.emit = emit
        start = configuration.origin ?? MonotonicClock.now
    }

    var discovery: AccelerometerDiscovery {
        AccelerometerDiscovery(uri: configuration.uri, mountMatrixOverride: configuration.mountMatrixOverride, rate: configuration.rate)
    }

    mutating func run() {
        do {
            resume = try ResumeAlarm()
        } catch {
            emit(.warning("a resume from suspend is noticed at the sensor's next reading only: no timerfd (\(error))"))
        }
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
                let present = try discovery.find()
                if monitor == nil {
                    found = present
                } else if let announced {
                    found = present.filter { announced[$0.candidate.id] == Self.instance(of: $0.udev) }
                } else {
                    announced = Dictionary(present.map { ($0.candidate.id, Self.instance(of: $0.udev)) }) { first, _ in first }
                    found = present
                }
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

    /// Opens and reads one sensor until it goes away or the thread is stopped, pausing
    /// while the reading gate is closed. Returns whether it was attached at all.
    mutating func readUntilLost(_ found: AccelerometerDiscovery.Found) -> Bool {
        let id = found.candidate.id
        let context: IIOContext
        let device: IIODevice
        var info: AccelerometerInfo
        do {
            context = try IIOContext(uri: configuration.uri)
            (info, device) = try discovery.open(found, in: context)
        } catch {
            emit(.changed(.lost(reason: "cannot open: \(error)"), device: id))
            _ = sleepOrStop(seconds: 1)
            return false
        }
        if configuration.forcePolling { info.readPath = .polled }
        let identity = configuration.uri == nil ? IIODeviceIdentity(id: id) : nil
        mountMatrixProperty = found.udev?.properties["ACCEL_MOUNT_MATRIX"]
        // Nothing is enabled for a sensor that is not to be read: its buffer is made only
        // when reading starts. The polled path's files are open before `attached` is
        // said, so whoever sees it sees the reader as it will stay (the hot-plug test
        // counts descriptors then).
        let syspath = found.udev?.syspath
        var reading = gate.isOpen ? startReading(device, info: &info, syspath: syspath) : nil
        for issue in info.issues { emit(.warning(issue.description)) }
        emit(.attached(info))
        let unreadable = "\(device.id) has no accel_x, accel_y and accel_z channels"
        if gate.isOpen && reading == nil {
            emit(.changed(.lost(reason: unreadable), device: id))
            return true
        }
        var given: GivenUpBuffer?
        while true {
            if reading == nil {
                emit(.changed(.idle, device: id))
                if let end = waitForGate(id) {
                    if case .lost(let reason) = end { emit(.changed(.lost(reason: reason), device: id)) }
                    return true
                }
                if replaced(id, opened: identity) { return true }
                reading = startReading(device, info: &info, syspath: syspath)
                guard reading != nil else {
                    emit(.changed(.lost(reason: unreadable), device: id))
                    return true
                }
                emit(.changed(.reading(read: info.readPath), device: id))
            }
            let end = read(reading, device: device, info: info, given: given)
            given?.patience = 0
            if !end.continuesSilence { given = nil }
            switch end {
            case .stopped: return true
            case .lost(let reason):
                emit(.changed(.lost(reason: reason), device: id))
                return true
            case .failed(let reason):
                emit(.changed(.lost(reason: reason), device: id))
                awaitUdev(on: id)
                return true
            case .paused:
                // Letting go of the buffer disables it (libiio writes buffer/enable 0), so
                // the driver can power the sensor down; the polled files were closed.
                reading = nil
            case .bufferSilent(let episode):
                reading = nil
                if replaced(id, opened: identity) { return true }
                reading = standIn(forDead: episode, given: &given, device: device, info: &info, syspath: syspath)
            case .retryBuffer:
                reading = nil
                if replaced(id, opened: identity) { return true }
                reading = startReading(device, info: &info, syspath: syspath)
            }
            if given != nil && reading == nil {
                emit(.changed(.lost(reason: unreadable), device: id))
                return true
            }
        }
    }

    /// Reads the sensor through `reading` until that ends (nil: the gate closed); after a
    /// dead buffer was given up (`given`), a buffer carries its episode on and polled
    /// reading lasts until the buffer is tried again.
    private mutating func read(_ reading: Reading?, device: IIODevice, info: AccelerometerInfo, given: GivenUpBuffer?) -> ReadEnd {
        switch reading {
        case .buffered(let scans):
            let retrying = given.map {
                BufferSilence(retrying: $0.episode.lastScan, givenUp: $0.episode.givenUp, now: MonotonicClock.now, waiting: $0.patience)
            }
            var buffered = BufferedReading(
                scans, info: info, configuration: configuration, polledInstead: given?.polledInstead ?? false, retrying: retrying)
            return buffered.run(in: &self)
        case .polled(let axes):
            return readPolled(
                axes, device: device, info: info,
                until: given.map { MonotonicClock.now + BufferSilence.retryDelay(givenUp: $0.episode.givenUp) })
        case nil:
            return .paused
        }
    }

    /// What reads a sensor whose buffer was given up. Its values may still answer though
    /// its buffer is dead (a hub that stopped its input reports, as iio-sensor-proxy's
    /// users have reported): read them polled meanwhile, said once an episode. Nothing
    /// answers: a new buffer, waited on still stalled as long as polled reading would have
    /// lasted before the next look. The old buffer is let go first, as most drivers refuse
    /// raw reads while it is on.
    private func standIn(
        forDead episode: BufferSilence, given: inout GivenUpBuffer?, device: IIODevice, info: inout AccelerometerInfo, syspath: String?
    ) -> Reading? {
        given = GivenUpBuffer(episode: episode, polledInstead: given?.polledInstead ?? false)
        let axes = PolledAxes.open(device, syspath: syspath)
        if let axes, case .success = axes.read() {
            if given?.polledInstead == false {
                given?.polledInstead = true
                let seconds = JSONLineWriter.number(MonotonicClock.now - episode.lastScan, decimals: 1)
                emit(
                    .warning(
                        "\(device.id): its buffer has sent nothing for \(seconds) s, though the sensor answers reads; "
                            + "reading it polled until the buffer sends again"))
                emit(
                    .changed(
                        .reading(read: .polled, because: "its buffer sends nothing"), device: device.id, time: MonotonicClock.now - start))
            }
            return .polled(axes)
        }
        axes?.close()
        given?.patience = BufferSilence.retryDelay(givenUp: episode.givenUp)
        return startReading(device, info: &info, syspath: syspath)
    }

    /// A dead buffer given up, while it stays so: its episode, carried on by each try of
    /// the buffer; whether the sensor is read polled meanwhile (said once an episode); and
    /// how long to wait on the next try before the usual grace (a sensor whose reads
    /// failed too).
    private struct GivenUpBuffer {
        var episode: BufferSilence
        var polledInstead: Bool
        var patience = 0.0
    }

    /// Makes what reads the sensor: its buffer, or (without one, or when it cannot be
    /// made) its axis files, updating `info.readPath`. Nil when it has no axes to read.
    private func startReading(_ device: IIODevice, info: inout AccelerometerInfo, syspath: String?) -> Reading? {
        if info.readPath == .buffered {
            do {
                let rest = configuration.adaptiveRate
                return .buffered(
                    try BufferedScans(
                        device: device, rate: info.samplingFrequency ?? configuration.rate, holding: rest.enabled ? rest.restInterval : 0))
            } catch {
                var why = "\(error)"
                if let refused = error as? IIOError, refused.code == EACCES || refused.code == EPERM, let syspath {
                    let denied = BufferPermissions.denied(syspath: syspath, node: "/dev/\(device.id)")
                    if !denied.isEmpty { why += "; " + BufferPermissions.explanation(denied) }
                }
                emit(.warning("\(device.id): buffered reading failed (\(why)); polling instead"))
                info.readPath = .polled
                info.polledBecause = "buffered reading failed (\(why))"
            }
        }
        return PolledAxes.open(device, syspath: syspath).map { .polled($0) }
    }
}

extension ReadLoop {
    /// Hands one reading on as the adaptive rate decides: classified, still, or not at
    /// all; a change of pace in the decision is the reader's to act on and say (`.pace`)
    /// once it has set the rate that goes with it.
    func hand(_ sample: Sample, to schedule: inout AdaptiveRate) -> AdaptiveRate.Decision {
        let decision = schedule.admit(sample)
        switch decision {
        case .skip: break
        case .still: emit(.still(sample))
        case .classify: emit(.sample(sample))
        }
        return decision
    }
}
