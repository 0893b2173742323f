import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// A HID sensor hub with one 3D accelerometer, playing a recording: what a tablet's
/// Integrated Sensor Hub looks like to Linux. The kernel's hid-sensor-hub and
/// hid-sensor-accel-3d drivers make a real IIO device of it; this answers their requests
/// and sends input reports as the recording goes.
///
/// It plays as hardware does: a polled read (a get-report of the input report) gets the
/// newest sample due; once the driver has switched reporting on (a buffer is enabled),
/// each sample is sent as an input report when it is due, no faster than the report
/// interval the driver set (`in_accel_sampling_frequency`), and, given a change
/// sensitivity (`in_accel_hysteresis`), only when an axis has moved by more than it since
/// the last report sent.
final class VirtualAccelerometer: PlayedAccelerometer {
    /// When the recording's first sample is sent.
    enum Start {
        /// When the device is plugged.
        case atPlug
        /// When a driver first asks for data (a read, or reporting switched on) and the
        /// owner has armed it: so a reader that is not yet listening misses nothing, and
        /// the moment is known exactly.
        case onDemand
    }

    enum Location: String {
        case display, base
    }

    let location: Location
    private(set) var playback: Playback
    private let startPolicy: Start
    /// Set by the owner in `.onDemand`: playing may begin at the next demand.
    var armed = true
    private(set) var device: UHIDDevice?
    private(set) var properties = SensorHubReports.Properties()
    /// Get-report requests for the input report that came before playing began: answered
    /// when it begins, as a sensor answers its first conversion.
    private var heldReads: [UInt32] = []
    private var lastSent: (round: Int, index: Int, at: Double)?
    /// The counts of the last input report sent, which a change sensitivity compares with.
    private var lastSentCounts: [Int32]?
    /// Whether the hub declares a change sensitivity, as the hubs of most 2-in-1s do.
    let offersSensitivity: Bool
    /// Polled reads answered and input reports sent, since the start.
    private(set) var readsAnswered = 0
    private(set) var reportsSent = 0
    /// Requests left unanswered by a `hang`.
    private(set) var unanswered = 0
    /// Both counts 3 s before the recording's end: how the daemon reads once it has got
    /// over the faults.
    private(set) var countsBeforeEnd: (reads: Int, reports: Int)?
    private let log: (String) -> Void
    /// How it misbehaves, and when (`Fault`).
    let faults: [Fault]
    /// Unplugged by a `replug` fault, to come back when it ends.
    private var replugging = false
    /// Loses its settings a second after the system resumes from a suspend, after the
    /// driver's own resume work has set it up again (firmware that resets late), and
    /// sends nothing until a driver sets it up again: the order in which the driver
    /// cannot help and the reader must (a `forget` a second after each resume).
    var forgetsOnResume = false
    /// Whether the system slept since the last tick, and when this resume's forget is due.
    private var sleeps = SystemSleeps()
    private var forgetDue: Double?

    init(
        location: Location, playback: Playback, start: Start, faults: [Fault] = [], offersSensitivity: Bool = true,
        log: @escaping (String) -> Void
    ) {
        self.location = location
        self.offersSensitivity = offersSensitivity
        self.playback = playback
        self.startPolicy = start
        self.faults = faults
        self.log = log
    }

    /// The sample due at `now` as the sensor reads it, faults and all.
    private func reading(at now: Double) -> Sample {
        Fault.reading(playback.current(at: now).sample, at: playback.recordingTime(at: now), under: faults) { playback.sample(at: $0) }
    }

    private func faultOn(_ kind: Fault.Kind, at now: Double) -> Bool {
        playback.hasStarted && faults.contains { $0.kind == kind && $0.isOn(at: playback.recordingTime(at: now)) }
    }

    /// Makes the HID device; the kernel binds its drivers to it.
    func plug() throws(VirtualDeviceError) {
        guard device == nil else { return }
        device = try UHIDDevice(
            name: "orientd virtual sensor hub (\(location.rawValue))",
            reportDescriptor: SensorHubReports.descriptor(sensitivity: offersSensitivity),
            bus: SensorHubReports.bus, vendor: SensorHubReports.vendor,
            product: location == .display ? SensorHubReports.displayProduct : SensorHubReports.baseProduct)
        properties = SensorHubReports.Properties()
        lastSentCounts = nil
        heldReads = []
        log(#"{"event":"plugged","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(MonotonicClock.now))}"#)
        if startPolicy == .atPlug && !playback.hasStarted { begin(at: MonotonicClock.now) }
    }

    func unplug() {
        guard let device else { return }
        device.destroy()
        self.device = nil
        log(#"{"event":"unplugged","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(MonotonicClock.now))}"#)
    }

    var descriptor: FileDescriptor? { device?.descriptor }
    var driver: String { "hid-sensor-accel-3d" }

    private var streaming: Bool { properties.powerOn && properties.reportingOn }

    /// Answers every request waiting on the device.
    func serveRequests() throws(VirtualDeviceError) {
        guard let device else { return }
        while let request = try device.nextRequest() {
            if faultOn(.hang, at: MonotonicClock.now) {
                // Never answered: uhid lets the kernel's wait time out. A late answer would
                // be dropped by uhid (its request id is gone), so none is sent after.
                if case .getReport = request { unanswered += 1 } else if case .setReport = request { unanswered += 1 }
                continue
            }
            switch request {
            case .getReport(let id, let number, let type):
                if type == UHIDDevice.ReportType.feature.rawValue && number == SensorHubReports.featureID {
                    try device.replyToGet(id: id, report: SensorHubReports.feature(properties, sensitivity: offersSensitivity))
                } else if type == UHIDDevice.ReportType.input.rawValue && number == SensorHubReports.inputID {
                    demand()
                    if playback.hasStarted {
                        try device.replyToGet(id: id, report: SensorHubReports.input(reading(at: MonotonicClock.now)))
                        readsAnswered += 1
                    } else {
                        heldReads.append(id)
                    }
                } else {
                    log(#"{"event":"refused","device":"\#(location.rawValue)","report":\#(number),"type":\#(type)}"#)
                    try device.replyToGet(id: id, report: nil)
                }
            case .setReport(let id, let number, let type, let data):
                let isFeature = type == UHIDDevice.ReportType.feature.rawValue && number == SensorHubReports.featureID
                let changed = isFeature ? SensorHubReports.parseFeature(data, over: properties, sensitivity: offersSensitivity) : nil
                try device.replyToSet(id: id, accepted: changed != nil)
                guard let changed else {
                    log(#"{"event":"refused","device":"\#(location.rawValue)","report":\#(number),"type":\#(type)}"#)
                    continue
                }
                if changed.reportInterval != properties.reportInterval {
                    log(
                        #"{"event":"interval","device":"\#(location.rawValue)","milliseconds":\#(changed.reportInterval),"time":\#(JSONLineWriter.number(MonotonicClock.now))}"#
                    )
                }
                if changed.sensitivity != properties.sensitivity {
                    log(
                        #"{"event":"sensitivity","device":"\#(location.rawValue)","counts":\#(changed.sensitivity),"reports":\#(reportsSent),"time":\#(JSONLineWriter.number(MonotonicClock.now))}"#
                    )
                }
                if changed.powerOn != properties.powerOn || changed.reportingOn != properties.reportingOn {
                    log(
                        #"{"event":"power","device":"\#(location.rawValue)","power":\#(changed.powerOn),"reporting":\#(changed.reportingOn),"time":\#(JSONLineWriter.number(MonotonicClock.now))}"#
                    )
                }
                properties = changed
                if streaming { demand() }
            case .lifecycle, .other:
                break
            }
        }
    }

    /// A driver wants data: playing begins now if the owner allows.
    private func demand() {
        guard !playback.hasStarted, startPolicy == .onDemand, armed else { return }
        begin(at: MonotonicClock.now)
    }

    /// Begins playing if a driver asked while the owner had not armed it yet.
    func armIfDemanded() {
        armed = true
        if !playback.hasStarted && (!heldReads.isEmpty || streaming) { begin(at: MonotonicClock.now) }
    }

    private func begin(at now: Double) {
        playback.begin(at: now)
        lastSent = nil
        log(#"{"event":"started","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(now, decimals: 6))}"#)
        if let device {
            let first = SensorHubReports.input(playback.samples[0])
            for id in heldReads { try? device.replyToGet(id: id, report: first) }
            readsAnswered += heldReads.count
        }
        heldReads = []
    }

    /// Plays `next` instead, from now (at once if the old one had begun).
    func play(_ next: Playback) {
        let started = playback.hasStarted
        playback = next
        lastSent = nil
        if started { playback.begin(at: MonotonicClock.now) }
    }

    /// Sends what is due at `now` and returns when something is next due (nil: nothing
    /// until a request comes).
    func tick(now: Double) throws(VirtualDeviceError) -> Double? {
        guard playback.hasStarted else { return nil }
        if playback.hasEnded(at: now) {
            guard playback.loops else { return nil }
            // The last report's time is kept: a sensor slowed by its driver sends no
            // sooner for a recording starting over (that extra report was 0.05 wake-ups a
            // second of a 20 s loop, counted against orientd by benchmark-kernel).
            playback.rewind(at: now)
        }
        if countsBeforeEnd == nil && !playback.loops && playback.hasEnded(at: now + 3) {
            countsBeforeEnd = (readsAnswered, reportsSent)
        }
        if sleeps.slept(suspended: MonotonicClock.suspended) && forgetsOnResume { forgetDue = now + 1 }
        let resumed = forgetDue.map { now >= $0 } ?? false
        if resumed { forgetDue = nil }
        if (resumed || faultOn(.forget, at: now)) && properties != SensorHubReports.Properties() {
            properties = SensorHubReports.Properties()
            log(
                #"{"event":"forgot","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(now)),"resumed":\#(resumed)}"#)
        }
        let replug = faultOn(.replug, at: now)
        if replug && device != nil {
            unplug()
            replugging = true
        } else if !replug && replugging {
            replugging = false
            try plug()
        }
        guard let device, streaming, !faultOn(.quiet, at: now), !faultOn(.hang, at: now) else {
            // Ticks through a fault at the recording's pace, to see it end.
            return playback.due(playback.current(at: now).index + 1) ?? (faults.isEmpty ? nil : now + playback.spacing)
        }
        let index = playback.current(at: now).index
        let sample = reading(at: now)
        let interval = Double(properties.reportInterval) / 1000
        let isNew = lastSent.map { $0.round != playback.round || $0.index != index } ?? true
        // A report interval longer than the recording's spacing (with a millisecond of
        // slack for the pacing's jitter) means the driver asked for a slower rate: send
        // no more often than that, the newest sample each time, as a sensor at a lower
        // output data rate would.
        let slowEnough = lastSent.map { now - $0.at >= interval - 0.001 } ?? true
        let counts = SensorHubReports.counts(sample)
        let moved = lastSentCounts.map { SensorHubReports.exceeds(counts, $0, sensitivity: properties.sensitivity) } ?? true
        if isNew && slowEnough && moved {
            try device.sendInput(SensorHubReports.input(sample))
            lastSent = (playback.round, index, now)
            lastSentCounts = counts
            reportsSent += 1
        }
        var next = playback.due(index + 1) ?? (playback.loops ? now + playback.spacing : nil)
        if let last = lastSent, interval > playback.spacing + 0.001, let n = next { next = max(n, last.at + interval) }
        return next
    }

    /// The end of the recording (once its last sample's lifetime has passed), for owners
    /// that stop there.
    func hasFinished(at now: Double) -> Bool {
        !playback.loops && playback.hasEnded(at: now)
    }
}
