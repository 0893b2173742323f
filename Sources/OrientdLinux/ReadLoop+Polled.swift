import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension ReadLoop {
    /// Polls `in_accel_{x,y,z}_raw` at the configured rate against absolute deadlines,
    /// or once every rest interval while the adaptive rate rests (the poll interval is
    /// the whole saving: the sensor's own rate is left alone, as a slowed sensor would
    /// hand a polled reader values up to one of its periods old). Returns why it stopped;
    /// the axis files are closed then. `until`: when to stop for the buffer to be tried
    /// again (`.retryBuffer`), while polled reading stands in for a dead one.
    mutating func readPolled(_ axes: PolledAxes, device: IIODevice, info: AccelerometerInfo, until: Double? = nil) -> ReadEnd {
        defer { axes.close() }
        let interval = 1 / max(configuration.rate, 0.1)
        var schedule = AdaptiveRate(parameters: configuration.adaptiveRate)
        emit(.pace(device: device.id, .full, hz: configuration.rate))
        var deadline = MonotonicClock.now
        var failures = ReadFailures(interval: interval)
        var slowReads = info.samplingFrequency.map {
            SlowPolledReads(interval: interval, available: info.samplingFrequencyAvailable, rate: $0)
        }
        while true {
            var raw = (x: 0.0, y: 0.0, z: 0.0)
            var readError: IIOError?
            let began = MonotonicClock.now
            switch axes.read() {
            case .success(let values): raw = values
            case .failure(let error): readError = error
            }
            let now = MonotonicClock.now
            if readError == nil, let faster = slowReads?.observe(readTook: now - began), let setting = info.samplingFrequencySetting {
                let from = slowReads?.rate ?? 0
                switch setting.set(faster, on: device, read: AccelerometerDiscovery.attributeReader(device: device, udev: nil)) {
                case .success(let inForce):
                    slowReads?.set(inForce)
                    emit(
                        .warning(
                            "\(device.id): a polled read took \(Int(((now - began) * 1000).rounded())) ms at "
                                + "\(SamplingFrequencySetting.format(from)) Hz (its driver waits for a conversion on each read); "
                                + "sampling frequency raised to \(SamplingFrequencySetting.format(inForce)) Hz"))
                case .failure(let issue):
                    slowReads?.set(nil)
                    emit(.warning("\(issue)"))
                }
            }
            if let readError {
                if readError.isNoDevice { return .failed("\(readError)") }
                if let report = failures.failed(at: now) {
                    emit(.warning(ReadFailures.message(report, error: "\(readError)", device: device.id)))
                }
            } else {
                if let report = failures.succeeded() {
                    emit(.warning(ReadFailures.message(report, error: "", device: device.id)))
                }
                let v = info.calibration.apply(x: raw.x, y: raw.y, z: raw.z)
                if let pace = hand(Sample(time: now - start, acceleration: v), to: &schedule).paceChange {
                    emit(.pace(device: device.id, pace, hz: pace == .rest ? configuration.adaptiveRate.restRate : configuration.rate))
                    if pace == .rest { ResidentMemory.releaseUnusedThreadStack() }
                }
            }
            // Back off on repeated failures: up to 1 s between attempts. At rest, the
            // next reading is when the schedule wants it.
            let delay = failures.delay
            if let due = schedule.due, failures.count == 0 {
                deadline = start + due
            } else {
                deadline += delay
                if deadline < now { deadline = now + delay }
            }
            if let until, deadline >= until { return .retryBuffer }
            let wake = wait(milliseconds: max(0, BufferWaits.milliseconds(from: MonotonicClock.now, until: deadline)))
            if let end = end(after: wake, reading: device.id) { return end }
        }
    }
}
