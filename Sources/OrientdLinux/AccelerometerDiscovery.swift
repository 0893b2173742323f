import OrientdCore
import OrientdIO
import SystemPackage

/// Finds the accelerometers a context offers and describes them.
///
/// On the local machine udev lists the IIO devices (`in_accel_{x,y,z}_raw` or
/// `scan_elements/in_accel_*_en`) and gives their udev properties (`ACCEL_MOUNT_MATRIX`,
/// `ACCEL_LOCATION` from systemd's hwdb); libiio opens them. Through a libiio URI (a board
/// running iiod) there is no udev: libiio alone lists the devices with x, y and z
/// accelerometer channels, and the same reading code serves.
public struct AccelerometerDiscovery {
    public var uri: String?
    public var mountMatrixOverride: MountMatrix?
    /// The rate wanted: the sampling frequency is chosen from it, and polling runs at it.
    public var rate: Double

    public init(uri: String? = nil, mountMatrixOverride: MountMatrix? = nil, rate: Double) {
        self.uri = uri
        self.mountMatrixOverride = mountMatrixOverride
        self.rate = rate
    }

    /// A device found, with its udev view when local.
    public struct Found: Sendable {
        public var candidate: AccelerometerCandidate
        public var udev: UdevDevice?
    }

    /// What was looked at, for a message when nothing is found.
    public var searchedPlaces: String {
        uri.map { "the IIO devices of \($0) (through libiio)" }
            ?? "udev's iio subsystem (/sys/bus/iio/devices) for in_accel_{x,y,z}_raw or scan_elements/in_accel_*_en"
    }

    /// The accelerometers there are now.
    public func find() throws -> [Found] {
        if uri == nil {
            let udev = try Udev()
            return try udev.devices(subsystem: "iio").filter(\.isAccelerometer).map { device in
                Found(candidate: Self.candidate(device), udev: device)
            }
        }
        let context = try IIOContext(uri: uri)
        return context.devices.filter { d in ["accel_x", "accel_y", "accel_z"].allSatisfy { d.channel($0) != nil } }.map { d in
            let label = d.label
            let sysfsLocation = try? d.attribute("location")
            let (location, source) = AccelerometerCandidate.location(udevProperty: nil, label: label, sysfsLocation: sysfsLocation)
            return Found(
                candidate: AccelerometerCandidate(id: d.id, name: d.name, label: label, location: location, locationSource: source),
                udev: nil)
        }
    }

    static func candidate(_ device: UdevDevice) -> AccelerometerCandidate {
        let label = device.attributes["label"]?.trimmingSysfs
        let (location, source) = AccelerometerCandidate.location(
            udevProperty: device.properties["ACCEL_LOCATION"], label: label, sysfsLocation: device.attributes["location"])
        return AccelerometerCandidate(
            id: device.sysname, name: device.attributes["name"]?.trimmingSysfs, label: label, location: location,
            locationSource: source)
    }

    /// Looks at one device through libiio: calibration, mount matrix, read path, and
    /// (when `configure`) sets its sampling frequency. Must run on the thread that will
    /// read it.
    public func open(_ found: Found, in context: IIOContext, configure: Bool = true) throws -> (AccelerometerInfo, IIODevice) {
        guard let device = context.device(named: found.candidate.id) else {
            throw IIOError("opening", found.candidate.id, code: 19)  // ENODEV
        }
        let attribute = Self.attributeReader(device: device, udev: found.udev)
        let (calibration, calibrationIssues) = AccelerometerCalibration.resolve(device: device.id, attribute: attribute)
        let resolved = MountMatrix.resolve(
            device: device.id, override: mountMatrixOverride, udevProperty: found.udev?.properties["ACCEL_MOUNT_MATRIX"],
            attribute: attribute)
        var issues = calibrationIssues + resolved.issues
        let hasBuffer =
            ["accel_x", "accel_y", "accel_z"].allSatisfy { device.channel($0)?.isScanElement == true }
            && (found.udev?.hasBufferedAccelerometer ?? true)
        // An I2C chip without an interrupt line (kxcjk1013, bmc150, st_accel, mpu6050 on a
        // board that wires none) has a buffer that samples on a trigger, none set
        // (`trigger/current_trigger` empty) and none of its own: enabled, it fails or
        // (bmc150) stays silent.
        let awaitsTrigger = attribute("trigger/current_trigger").map { $0.trimmingSysfs.isEmpty } ?? false
        let triggerless = hasBuffer && awaitsTrigger && BufferedScans.trigger(for: device) == nil
        let buffered = hasBuffer && !triggerless
        let available = attribute("sampling_frequency_available") ?? attribute("in_accel_sampling_frequency_available")
        var frequency = AttributeValue.number(attribute("sampling_frequency") ?? attribute("in_accel_sampling_frequency"))
        let setting =
            frequency == .missing
            ? nil
            : SamplingFrequencySetting(
                attribute: device.attributeNames.contains("sampling_frequency") ? "sampling_frequency" : "in_accel_sampling_frequency",
                available: available)
        if configure, let setting {
            switch setting.set(rate, on: device, read: attribute) {
            case .success(let inForce): frequency = .value(inForce)
            case .failure(let issue): issues.append(issue)
            }
        }
        var samplingFrequency: Double?
        if case .value(let hz) = frequency {
            if hz > 0 {
                samplingFrequency = hz
            } else {
                // A rate of 0 (a HID sensor hub's report interval not set, or one it would
                // not keep) would make every pace and stall bound built on it meaningless.
                issues.append(
                    AttributeIssue(
                        device: device.id, attribute: setting?.attribute ?? "sampling_frequency",
                        message: "reads \(SamplingFrequencySetting.format(hz)) Hz, which is no rate; taken as unknown (--rate is assumed)"))
            }
        }
        var sensitivity: ChangeSensitivity?
        switch ChangeSensitivity.resolve(
            device: device.id, attributeText: attribute(ChangeSensitivity.attribute), scale: calibration.scale.x)
        {
        case .success(let offered): sensitivity = offered
        case .failure(let issue): issues.append(issue)
        case nil: break
        }
        let info = AccelerometerInfo(
            candidate: found.candidate, calibration: calibration, mountMatrix: resolved.matrix,
            mountMatrixSource: resolved.source, readPath: buffered ? .buffered : .polled,
            polledBecause: triggerless
                ? "its buffer has no trigger (trigger/current_trigger is empty and the driver made none: no interrupt line)" : nil,
            samplingFrequency: samplingFrequency,
            samplingFrequencyAvailable: available?.trimmingSysfs, samplingFrequencySetting: setting, changeSensitivity: sensitivity,
            issues: issues,
            location: found.udev?.syspath ?? "\(context.uri) \(device.id)")
        return (info, device)
    }

    /// One reading of the three axes (`in_accel_{x,y,z}_raw`), calibrated and turned by
    /// the mount matrix: what `list` shows, so a person can check a sensor's axes. nil
    /// for a sensor that is read only through its buffer.
    public func reading(of info: AccelerometerInfo, device: IIODevice, udev: UdevDevice?) -> Vector3? {
        let attribute = Self.attributeReader(device: device, udev: udev)
        let raw = ["x", "y", "z"].compactMap { attribute("in_accel_\($0)_raw").flatMap { DecimalParser.value(of: $0) } }
        guard raw.count == 3 else { return nil }
        return info.mountMatrix.apply(info.calibration.apply(x: raw[0], y: raw[1], z: raw[2]))
    }

    /// Reads an attribute by its sysfs name: from sysfs itself when local (exact names,
    /// so a shared `in_accel_scale` is told from per-axis ones), else through libiio,
    /// which names channel attributes without their channel prefix.
    static func attributeReader(device: IIODevice, udev: UdevDevice?) -> (String) -> String? {
        if let syspath = udev?.syspath {
            return { name in SysfsFile.read(syspath + "/" + name) }
        }
        return { name in
            if let value = try? device.attribute(name) { return value }
            for axis in ["x", "y", "z"] where name.hasPrefix("in_accel_\(axis)_") {
                return try? device.channel("accel_\(axis)")?.attribute(String(name.dropFirst("in_accel_\(axis)_".count)))
            }
            if name.hasPrefix("in_accel_") {
                return try? device.channel("accel_x")?.attribute(String(name.dropFirst("in_accel_".count)))
            }
            return nil
        }
    }
}

/// Small sysfs files, read whole (an attribute is at most a page).
enum SysfsFile {
    /// `limit`: the most it may hold (a page, the kernel's own limit, by default); a
    /// number needs far less, and its read buffer is what the heap keeps after it.
    static func read(_ path: String, limit: Int = 65536) -> String? {
        guard let bytes = try? WholeFile.read(path, limit: limit) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
