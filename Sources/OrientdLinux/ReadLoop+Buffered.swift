import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension ReadLoop {
    /// Reads scans from the kernel buffer as they come, until the thread is stopped, the
    /// sensor lost or the reading gate closed. A new call after a pause starts the stall
    /// watch and the adaptive rate afresh: a pause is no silence, and no rest.
    ///
    /// At rest (`AdaptiveRate`) the sensor's own rate is lowered to the rest rate, so it
    /// wakes the CPU no more than that; a sensor that cannot go that slow (its slowest
    /// rate is faster, or the driver refuses) keeps sending, and the reader sleeps to each
    /// rest reading instead, taking what came meanwhile in one read. A sensor that offers
    /// a change sensitivity is given one at rest instead (`AdaptiveRate`'s watch), sends
    /// only what moved, and is asked for a reading now and then to know it still answers
    /// (`WatchCheck`).
    ///
    /// A buffer that goes silent is handled as `BufferSilence` says: `stalled`, its
    /// settings applied again, then given up (`.bufferSilent`) for polled reading. A
    /// `retrying` buffer is one made again after that: its first scans end the episode (and
    /// the polled reading, if it was `polledInstead`).
    mutating func readBuffered(
        _ scans: BufferedScans, info: AccelerometerInfo, polledInstead: Bool = false, retrying: BufferSilence? = nil
    ) -> ReadEnd {
        var clock = TimestampClock()
        var lastTime = -Double.infinity
        let fullRate = info.samplingFrequency ?? configuration.rate
        var rate = SensorRate(
            device: scans.device, full: fullRate, rest: configuration.adaptiveRate.restRate, setting: info.samplingFrequencySetting)
        defer { rate.restore() }
        var schedule = AdaptiveRate(parameters: configuration.adaptiveRate, sensorWatches: info.changeSensitivity != nil)
        var sensitivity = info.changeSensitivity.map {
            SensitivitySetting(device: scans.device, offered: $0, wanted: configuration.adaptiveRate.changeSensitivity)
        }
        defer { sensitivity?.restore() }
        var check = WatchCheck()
        emit(.pace(device: scans.device.id, .full, hz: rate.current))
        let attached = MonotonicClock.now
        var lastRead = -Double.infinity
        var silence = retrying ?? BufferSilence(now: attached)
        // The rate being written again while the buffer is silent (AttributeWrite).
        var reapplying: AttributeWrite?
        let sysfs = configuration.uri == nil ? "\(IIODeviceIdentity.devices)/\(scans.device.id)" : nil
        var bufferFailures = ReadFailures(interval: 0.1)
        // The last read found nothing: wait for data in poll(2) before reading again.
        var drained = false
        var sleeps = SystemSleeps()
        _ = sleeps.slept(suspended: MonotonicClock.suspended)
        while true {
            let now = MonotonicClock.now
            // After a suspend (the resume alarm wakes the wait) the device may have been
            // moved, and a sensor may have lost its settings after its driver set them
            // again (a hub's firmware resetting late): one left watching would send
            // nothing, its silence excused, until the next check a minute on. So the full
            // rate, as after a start: the sensor is given its rate and its own
            // sensitivity again (a HID hub's whole feature report, power and reporting
            // with them), and its silence counts. Looked at every pass, not only when the
            // alarm woke the wait: two vDSO clock reads, and it holds without the alarm.
            if sleeps.slept(suspended: MonotonicClock.suspended) {
                silence.woke(at: now)
                if schedule.pace != .full {
                    schedule.restart()
                    follow(.full)
                }
            }
            let reader = BufferWaits.Reader(
                restReadingDue: schedule.due.map { start + $0 }, period: 1 / rate.current, sendsFasterThanRest: rate.sendsFasterThanRest,
                drained: drained, pace: schedule.pace, opened: attached, lastRead: lastRead,
                silent: silence.isStalled || check.isUnanswered,
                nextCheck: check.next)
            var readDirectly = false
            switch BufferWaits.before(reader, now: now) {
            case .readRestReading(let at):
                if now < at {
                    let wake = wait(milliseconds: BufferWaits.milliseconds(from: now, until: at))
                    if let end = end(after: wake, reading: scans.device.id) { return end }
                    guard wake.timedOut else { continue }
                }
                readDirectly = true
            case .batch(let until):
                // After the window the scans are most likely there: read at once, without
                // another poll (one system call less per wake-up); if not, poll as usual.
                let wake = wait(milliseconds: BufferWaits.milliseconds(from: now, until: until))
                if let end = end(after: wake, reading: scans.device.id) { return end }
                readDirectly = wake.timedOut
            case .poll:
                break
            }
            if !readDirectly {
                let asked = MonotonicClock.now
                let timeout = BufferWaits.pollTimeout(reader, now: now)
                let wake = wait(milliseconds: timeout, data: scans.descriptor)
                if wake.interrupted { continue }
                if let end = end(after: wake, reading: scans.device.id) { return end }
                if wake.data & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .failed("the buffer closed") }
                guard wake.data & Int16(POLLIN) != 0 else {
                    let woke = MonotonicClock.now
                    if BufferWaits.slept(asked: asked, timeout: timeout, now: woke) { silence.woke(at: woke) }
                    switch check.silence(at: woke, watching: schedule.pace == .watch, stalled: silence.isStalled, canAsk: sysfs != nil) {
                    case .expected:
                        silence.excuse(at: woke)
                    case .ask:
                        // Read on this thread, and small: a thread a check cost its own
                        // wake-ups, and a page's buffer was heap kept after it; a hub that
                        // answers nothing holds the read 10 s (uhid's and the driver's
                        // time-outs), once a minute while nothing moves anyway.
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
                        if let warning = silence.applied(at: MonotonicClock.now, refused: refused) { emit(.warning(warning)) }
                    }
                    // A buffer that stays silent is stuck (a hung trigger, a sensor that
                    // lost its settings or stopped reporting): said once, and again when
                    // scans come back.
                    switch silence.check(now: MonotonicClock.now, rate: rate.current) {
                    case .wait: break
                    case .stall(let seconds):
                        emit(.stalled(device: scans.device.id, seconds: seconds, time: MonotonicClock.now - start))
                        fallthrough
                    case .reapply:
                        reapplying = rate.startReapply(in: sysfs)
                        if reapplying == nil { _ = silence.applied(at: MonotonicClock.now) }
                    case .hung(let seconds):
                        emit(.hung(device: scans.device.id, seconds: seconds, time: MonotonicClock.now - start))
                    case .giveUp:
                        return .bufferSilent(silence)
                    }
                    continue
                }
            }
            lastRead = MonotonicClock.now
            var change: AdaptiveRate.Pace?
            do {
                let interval = 1 / rate.current
                try scans.read { x, y, z, timestamp in
                    if let seconds = silence.scan(at: lastRead) {
                        // Said before the scans that end the silence are handed on.
                        emit(.resumed(device: scans.device.id, afterSeconds: seconds, time: lastRead - start))
                        if polledInstead {
                            emit(
                                .reading(
                                    device: scans.device.id, read: .buffered, because: "its buffer sends again", time: lastRead - start))
                        }
                    }
                    let arrival = MonotonicClock.now - start
                    // Without a timestamp channel the scans of one refill arrive together:
                    // space them at the sampling interval rather than give them one time.
                    let time =
                        timestamp.map { clock.time(nanoseconds: $0, arrival: arrival) }
                        ?? max(arrival, lastTime + interval)
                    lastTime = time
                    let sample = Sample(time: time, acceleration: info.calibration.apply(x: Double(x), y: Double(y), z: Double(z)))
                    let atRest = schedule.due != nil
                    let decision = hand(sample, to: &schedule)
                    if atRest { rate.observe(time, read: decision.isRead) }
                    if let pace = decision.paceChange { change = pace }
                }
            } catch let error as IIOError where error.code == EAGAIN {
                // Nothing yet: wait in poll(2), where a stall is noticed.
                lastRead = -Double.infinity
                drained = true
                continue
            } catch let error as IIOError where error.isNoDevice {
                return .failed("\(error)")
            } catch {
                // A read error (EIO, a garbled refill): retried with the same back-off
                // and reports as the polled path.
                if let report = bufferFailures.failed(at: MonotonicClock.now) {
                    emit(.warning(ReadFailures.message(report, error: "\(error)", device: scans.device.id)))
                }
                if !sleepOrStop(seconds: bufferFailures.delay) { return .stopped }
                continue
            }
            drained = false
            check.scansCame()
            if let report = bufferFailures.succeeded() {
                emit(.warning(ReadFailures.message(report, error: "", device: scans.device.id)))
            }
            if let change { follow(change) }
        }

        /// The sensor set for `pace`: its rate, and its sensitivity given or given back.
        func follow(_ pace: AdaptiveRate.Pace) {
            var change = pace
            if let refused = rate.follow(change) { emit(.warning(refused)) }
            if let issue = sensitivity?.follow(change) {
                if change == .watch {
                    sensitivity = nil
                    schedule.stopWatching()
                    change = .rest
                    if let refused = rate.follow(change) { emit(.warning(refused)) }
                    emit(.warning("\(issue); resting at the rest rate instead"))
                } else {
                    // Its own value could not be given back: tried again at the next
                    // change of pace.
                    emit(.warning("\(issue); it may send only what moves past its sensitivity until it takes it"))
                }
            }
            check.paceChanged(to: change, at: MonotonicClock.now)
            emit(.pace(device: scans.device.id, change, hz: rate.current))
            if change != .full { ResidentMemory.releaseUnusedThreadStack() }
        }
    }
}
