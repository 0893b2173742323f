import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// One kernel buffer being read, from its first scan until the thread is stopped, the
/// sensor lost or the reading gate closed; lives on the sensor thread. A new reading
/// after a pause starts the stall watch and the adaptive rate afresh: a pause is no
/// silence, and no rest.
///
/// At rest (`AdaptiveRate`) the sensor's own rate is lowered to the rest rate, so it
/// wakes the CPU no more than that; a sensor that cannot go that slow (its slowest rate
/// is faster, or the driver refuses) keeps sending, and the reader sleeps to each rest
/// reading instead, taking what came meanwhile in one read. A sensor that offers a change
/// sensitivity is given one at rest instead (`AdaptiveRate`'s watch), sends only what
/// moved, and is asked for a reading now and then to know it still answers
/// (`WatchCheck`).
///
/// A buffer that goes silent is handled as `BufferSilence` says: `stalled`, its settings
/// applied again, then given up (`.bufferSilent`) for polled reading. A `retrying` buffer
/// is one made again after that: its first scans end the episode (and the polled
/// reading, if it was `polledInstead`).
///
/// Each pass waits (`awaitScans`), then takes the scans (`take`) or, when none came,
/// looks at the silence (`quiet`); what each decides is in the pure types it asks
/// (`BufferWaits`, `BufferSilence`, `WatchCheck`, `AdaptiveRate`), tested on their own.
struct BufferedReading {
    let scans: BufferedScans
    let info: AccelerometerInfo
    let polledInstead: Bool
    /// The device's directory in sysfs, where a silent sensor's values are asked and its
    /// rate written again; nil through a remote context.
    let sysfs: String?
    let attached: Double
    var rate: SensorRate
    var schedule: AdaptiveRate
    var sensitivity: SensitivitySetting?
    var check = WatchCheck()
    var silence: BufferSilence
    /// The rate being written again while the buffer is silent (`AttributeWrite`).
    var reapplying: AttributeWrite?
    var clock = TimestampClock()
    var lastTime = -Double.infinity
    var lastRead = -Double.infinity
    var failures = ReadFailures(interval: 0.1)
    /// The last read found nothing: wait for data in poll(2) before reading again.
    var drained = false
    var sleeps = SystemSleeps()

    init(
        _ scans: BufferedScans, info: AccelerometerInfo, configuration: SensorReader.Configuration, polledInstead: Bool,
        retrying: BufferSilence?
    ) {
        self.scans = scans
        self.info = info
        self.polledInstead = polledInstead
        sysfs = configuration.uri == nil ? "\(IIODeviceIdentity.devices)/\(scans.device.id)" : nil
        rate = SensorRate(
            device: scans.device, full: info.samplingFrequency ?? configuration.rate, rest: configuration.adaptiveRate.restRate,
            setting: info.samplingFrequencySetting)
        schedule = AdaptiveRate(parameters: configuration.adaptiveRate, sensorWatches: info.changeSensitivity != nil)
        sensitivity = info.changeSensitivity.map {
            SensitivitySetting(device: scans.device, offered: $0, wanted: configuration.adaptiveRate.changeSensitivity)
        }
        attached = MonotonicClock.now
        silence = retrying ?? BufferSilence(now: attached)
        _ = sleeps.slept(suspended: MonotonicClock.suspended)
    }

    /// Reads until the reading ends, and says why; the sensor's rate and sensitivity are
    /// given back then.
    mutating func run(in loop: inout ReadLoop) -> ReadLoop.ReadEnd {
        defer { rate.restore() }
        defer { sensitivity?.restore() }
        loop.emit(.pace(device: scans.device.id, .full, hz: rate.current))
        while true {
            noticeResume(&loop)
            switch awaitScans(&loop) {
            case .ended(let end): return end
            case .again: continue
            case .read: break
            }
            if let end = take(&loop) { return end }
        }
    }

    /// After a suspend (the resume alarm wakes the wait) the device may have been moved,
    /// and a sensor may have lost its settings after its driver set them again (a hub's
    /// firmware resetting late): one left watching would send nothing, its silence
    /// excused, until the next check a minute on. So the full rate, as after a start: the
    /// sensor is given its rate and its own sensitivity again (a HID hub's whole feature
    /// report, power and reporting with them), and its silence counts. Looked at every
    /// pass, not only when the alarm woke the wait: two vDSO clock reads, and it holds
    /// without the alarm.
    private mutating func noticeResume(_ loop: inout ReadLoop) {
        guard sleeps.slept(suspended: MonotonicClock.suspended) else { return }
        silence.woke(at: MonotonicClock.now)
        if schedule.pace != .full {
            schedule.restart()
            follow(.full, &loop)
        }
    }

    /// What a wait for scans came to.
    private enum Awaited {
        /// Read the buffer now.
        case read
        /// Nothing to read: the next pass.
        case again
        case ended(ReadLoop.ReadEnd)
    }

    /// Waits as `BufferWaits` says: to the next rest reading, through a batch window, or
    /// in poll(2) for the buffer; a poll that finds nothing looks at the silence.
    private mutating func awaitScans(_ loop: inout ReadLoop) -> Awaited {
        let now = MonotonicClock.now
        let reader = BufferWaits.Reader(
            restReadingDue: schedule.due.map { loop.start + $0 }, period: 1 / rate.current,
            sendsFasterThanRest: rate.sendsFasterThanRest, drained: drained, pace: schedule.pace, opened: attached,
            lastRead: lastRead, silent: silence.isStalled || check.isUnanswered, nextCheck: check.next)
        switch BufferWaits.before(reader, now: now) {
        case .readRestReading(let at):
            guard now < at else { return .read }
            let wake = loop.wait(milliseconds: BufferWaits.milliseconds(from: now, until: at))
            if let end = loop.end(after: wake, reading: scans.device.id) { return .ended(end) }
            return wake.timedOut ? .read : .again
        case .batch(let until):
            // After the window the scans are most likely there: read at once, without
            // another poll (one system call less per wake-up); if not, poll as usual.
            let wake = loop.wait(milliseconds: BufferWaits.milliseconds(from: now, until: until))
            if let end = loop.end(after: wake, reading: scans.device.id) { return .ended(end) }
            if wake.timedOut { return .read }
        case .poll:
            break
        }
        let asked = MonotonicClock.now
        let timeout = BufferWaits.pollTimeout(reader, now: now)
        let wake = loop.wait(milliseconds: timeout, data: scans.descriptor)
        if wake.interrupted { return .again }
        if let end = loop.end(after: wake, reading: scans.device.id) { return .ended(end) }
        if wake.data & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .ended(.failed("the buffer closed")) }
        if wake.data & Int16(POLLIN) != 0 { return .read }
        let woke = MonotonicClock.now
        if BufferWaits.slept(asked: asked, timeout: timeout, now: woke) { silence.woke(at: woke) }
        return quiet(at: woke, &loop).map { .ended($0) } ?? .again
    }

    /// Nothing came in a wait: a silence the watch expects is excused (or the sensor
    /// asked whether it still answers), a rate written again is seen through, and a
    /// buffer that stays silent is said stuck, its settings applied again, and given up.
    private mutating func quiet(at woke: Double, _ loop: inout ReadLoop) -> ReadLoop.ReadEnd? {
        switch check.silence(at: woke, watching: schedule.pace == .watch, stalled: silence.isStalled, canAsk: sysfs != nil) {
        case .expected:
            silence.excuse(at: woke)
        case .ask:
            // Read on this thread, and small: a thread a check cost its own wake-ups, and
            // a page's buffer was heap kept after it; a hub that answers nothing holds the
            // read 10 s (uhid's and the driver's time-outs), once a minute while nothing
            // moves anyway.
            silence.excuse(at: woke)
            let answer = sysfs.flatMap { SysfsFile.read($0 + "/in_accel_x_raw", limit: 64) }
            let returned = MonotonicClock.now
            if check.asked(answered: answer != nil, from: woke, to: returned) { silence.excuse(at: returned) }
        case .counts:
            break
        }
        if let write = reapplying, let outcome = write.finished {
            reapplying = nil
            let refused = rate.reapplied(outcome)
            if let warning = silence.applied(at: MonotonicClock.now, refused: refused) { loop.emit(.warning(warning)) }
        }
        // A buffer that stays silent is stuck (a hung trigger, a sensor that lost its
        // settings or stopped reporting): said once, and again when scans come back.
        switch silence.check(now: MonotonicClock.now, rate: rate.current) {
        case .wait: break
        case .stall(let seconds):
            loop.emit(.changed(.stalled(seconds: seconds), device: scans.device.id, time: MonotonicClock.now - loop.start))
            reapply()
        case .reapply:
            reapply()
        case .hung(let seconds):
            loop.emit(.changed(.hung(seconds: seconds), device: scans.device.id, time: MonotonicClock.now - loop.start))
        case .giveUp:
            return .bufferSilent(silence)
        }
        return nil
    }

    /// Starts writing the sensor's rate again, in the background (a hung hub holds the
    /// write); without sysfs it counts as applied at once.
    private mutating func reapply() {
        reapplying = rate.startReapply(in: sysfs)
        if reapplying == nil { _ = silence.applied(at: MonotonicClock.now) }
    }

    /// Takes what the buffer holds and hands each scan on, timed by its timestamp channel
    /// (or spaced at the sampling interval without one); a read that fails is retried
    /// with the polled path's back-off and reports.
    private mutating func take(_ loop: inout ReadLoop) -> ReadLoop.ReadEnd? {
        lastRead = MonotonicClock.now
        var change: AdaptiveRate.Pace?
        do {
            let interval = 1 / rate.current
            try scans.read { x, y, z, timestamp in
                if let seconds = silence.scan(at: lastRead) {
                    // Said before the scans that end the silence are handed on.
                    loop.emit(.changed(.resumed(afterSeconds: seconds), device: scans.device.id, time: lastRead - loop.start))
                    if polledInstead {
                        loop.emit(
                            .changed(
                                .reading(read: .buffered, because: "its buffer sends again"), device: scans.device.id,
                                time: lastRead - loop.start))
                    }
                }
                let arrival = MonotonicClock.now - loop.start
                let time = timestamp.map { clock.time(nanoseconds: $0, arrival: arrival) } ?? max(arrival, lastTime + interval)
                lastTime = time
                let sample = Sample(time: time, acceleration: info.calibration.apply(x: Double(x), y: Double(y), z: Double(z)))
                let atRest = schedule.due != nil
                let decision = loop.hand(sample, to: &schedule)
                if atRest { rate.observe(time, read: decision.isRead) }
                if let pace = decision.paceChange { change = pace }
            }
        } catch let error as IIOError where error.code == EAGAIN {
            // Nothing yet: wait in poll(2), where a stall is noticed.
            lastRead = -Double.infinity
            drained = true
            return nil
        } catch let error as IIOError where error.isNoDevice {
            return .failed("\(error)")
        } catch {
            if let report = failures.failed(at: MonotonicClock.now) {
                loop.emit(.warning(ReadFailures.message(report, error: "\(error)", device: scans.device.id)))
            }
            return loop.sleepOrStop(seconds: failures.delay) ? nil : .stopped
        }
        drained = false
        check.scansCame()
        if let report = failures.succeeded() {
            loop.emit(.warning(ReadFailures.message(report, error: "", device: scans.device.id)))
        }
        if let change { follow(change, &loop) }
        return nil
    }

    /// The sensor set for `pace`: its rate, and its sensitivity given or given back.
    private mutating func follow(_ pace: AdaptiveRate.Pace, _ loop: inout ReadLoop) {
        var change = pace
        if let refused = rate.follow(change) { loop.emit(.warning(refused)) }
        if let issue = sensitivity?.follow(change) {
            if change == .watch {
                sensitivity = nil
                schedule.stopWatching()
                change = .rest
                if let refused = rate.follow(change) { loop.emit(.warning(refused)) }
                loop.emit(.warning("\(issue); resting at the rest rate instead"))
            } else {
                // Its own value could not be given back: tried again at the next change
                // of pace.
                loop.emit(.warning("\(issue); it may send only what moves past its sensitivity until it takes it"))
            }
        }
        check.paceChanged(to: change, at: MonotonicClock.now)
        loop.emit(.pace(device: scans.device.id, change, hz: rate.current))
        if change != .full { ResidentMemory.releaseUnusedThreadStack() }
    }
}
