import OrientdCore

/// The rate a buffered sensor sends at: lowered to the rest rate when the adaptive rate
/// rests, raised again when it does not, with what to do when the driver will not.
/// Lives on the sensor thread, with the device.
struct SensorRate {
    let device: IIODevice
    let full: Double
    let rest: Double
    let setting: SamplingFrequencySetting?
    /// The trigger that paces it, when that has a rate of its own (an hrtimer).
    private var trigger: TriggerRate?
    /// The device's own rate now.
    private var deviceRate: Double
    /// What it sends at now: its trigger's rate when one paces it, else its own.
    var current: Double { trigger?.current ?? deviceRate }
    /// The driver refused once: not asked again while this sensor is read.
    private var refused = false
    /// Scans came faster than the rate in force says: a driver that took the rate but
    /// sends at its trigger's (an hrtimer's, a fake's). Believed over the attribute
    /// until the pace changes.
    private var sendsFaster = false
    /// The last scan at rest since the first one read there: the scans queued before the
    /// rate was lowered are no evidence.
    private var lastScan: Double?

    init(device: IIODevice, full: Double, rest: Double, setting: SamplingFrequencySetting?) {
        self.device = device
        self.full = full
        self.rest = rest
        self.setting = setting
        deviceRate = full
        trigger = TriggerRate(of: device)
    }

    /// Whether the reader must sleep to each rest reading rather than be woken by
    /// the sensor (which sends half as fast again as the rest rate, or faster).
    var sendsFasterThanRest: Bool { current > 1.5 * rest || sendsFaster }

    /// A scan's time at rest, and whether it was read.
    mutating func observe(_ time: Double, read: Bool) {
        guard let lastScan else {
            if read { lastScan = time }
            return
        }
        if time - lastScan < 1 / (1.5 * rest) { sendsFaster = true }
        self.lastScan = time
    }

    /// Sets the sensor to the rate of `pace` (what it offers nearest); a warning the
    /// first time the driver refuses, nil otherwise. A sensor without a setting stays as
    /// it is.
    mutating func follow(_ pace: AdaptiveRate.Pace) -> String? {
        let warnings = [set(pace == .rest ? rest : full), trigger?.follow(pace, rest: rest)].compactMap { $0 }
        return warnings.isEmpty ? nil : warnings.joined(separator: "; ")
    }

    /// Back to the full rate when reading ends, so the next reader (after a pause, or
    /// another program) finds the sensor, and its trigger, as they were set up.
    mutating func restore() {
        if deviceRate != full { _ = set(full) }
        _ = trigger?.follow(.full, rest: rest)
    }

    /// Starts writing the rate in force again, for a sensor that stopped sending: one that
    /// lost its settings (a hub reset, a resume) sends nothing until told again. On a HID
    /// sensor hub this one write restores its power and reporting state too: the driver
    /// sends the whole feature report from its copy. Not read first: a read asks the hub,
    /// and its answer (power off) replaces that copy (measured: read, then write, and the
    /// hub stays off). `directory`: the device's sysfs directory; nil (a remote board's
    /// context), or a sensor with no rate to write, writes nothing.
    mutating func startReapply(in directory: String?) -> AttributeWrite? {
        guard let directory, let setting, !refused else { return nil }
        return AttributeWrite(path: directory + "/" + setting.attribute, value: SamplingFrequencySetting.format(deviceRate))
    }

    /// What that write came to: nil when the sensor took it (the rate read back kept),
    /// else why not.
    mutating func reapplied(_ outcome: AttributeWrite.Outcome) -> String? {
        switch outcome {
        case .written(let back):
            if let setting { deviceRate = setting.inForce(written: deviceRate, readBack: back) }
            return nil
        case .failed(let why):
            return why
        }
    }

    private mutating func set(_ wanted: Double) -> String? {
        sendsFaster = false
        lastScan = nil
        guard let setting, !refused, wanted != deviceRate else { return nil }
        switch setting.set(wanted, on: device, read: AccelerometerDiscovery.attributeReader(device: device, udev: nil)) {
        case .success(let inForce):
            deviceRate = inForce
            return nil
        case .failure(let issue):
            refused = true
            return "\(issue); reading it at \(SamplingFrequencySetting.format(current)) Hz and waking only for the rest readings instead"
        }
    }
}
