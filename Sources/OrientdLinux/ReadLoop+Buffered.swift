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
    /// watch afresh: a pause is no silence.
    mutating func readBuffered(_ scans: BufferedScans, info: AccelerometerInfo) -> ReadEnd {
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
                if wake.stop { return .stopped }
                if wake.hotPlug, removed(scans.device.id) { return .lost("removed") }
                if wake.gate, gateClosed() { return .paused }
                readDirectly = wake.timedOut
            }
            if !readDirectly {
                let wake = wait(milliseconds: 1000, data: scans.descriptor)
                if wake.interrupted { continue }
                if wake.stop { return .stopped }
                if wake.hotPlug, removed(scans.device.id) { return .lost("removed") }
                if wake.gate, gateClosed() { return .paused }
                if wake.data & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .lost("the buffer closed") }
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
                return .lost("\(error)")
            } catch {
                // A read error (EIO, a garbled refill): retried with the same back-off
                // and reports as the polled path.
                if let report = bufferFailures.failed(at: ReadLoop.monotonic()) {
                    emit(.warning(ReadFailures.message(report, error: "\(error)", device: scans.device.id)))
                }
                if !sleepOrStop(seconds: bufferFailures.delay) { return .stopped }
                continue
            }
            if let report = bufferFailures.succeeded() {
                emit(.warning(ReadFailures.message(report, error: "", device: scans.device.id)))
            }
            lastScan = lastRead
        }
    }
}
