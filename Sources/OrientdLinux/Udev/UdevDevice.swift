import CUdev

/// What orientd needs to know of a udev device, copied out of libudev so it can cross
/// threads: a plain value.
public struct UdevDevice: Hashable, Sendable {
    /// `/sys/devices/…/iio:device0`.
    public var syspath: String
    /// `iio:device0`.
    public var sysname: String
    /// `/dev/iio:device0`, if any.
    public var devnode: String?
    public var properties: [String: String]
    /// The sysfs attributes orientd reads at discovery, as text; absent ones are missing.
    public var attributes: [String: String]

    /// The names of the device's own sysfs attributes (its directory's entries), values
    /// unread.
    public var attributeNames: Set<String>

    /// Attributes read at discovery: identity, location, mount matrix, and whether the
    /// device has buffered accelerometer channels.
    static let interestingAttributes = [
        "name", "label", "location", "mount_matrix", "in_accel_mount_matrix", "in_mount_matrix",
        "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en", "scan_elements/in_accel_z_en",
    ]

    init(_ device: OpaquePointer) {
        syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        sysname = udev_device_get_sysname(device).map { String(cString: $0) } ?? ""
        devnode = udev_device_get_devnode(device).map { String(cString: $0) }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let e = entry {
            if let name = udev_list_entry_get_name(e), let value = udev_list_entry_get_value(e) {
                properties[String(cString: name)] = String(cString: value)
            }
            entry = udev_list_entry_get_next(e)
        }
        self.properties = properties
        var attributes: [String: String] = [:]
        for name in Self.interestingAttributes {
            if let value = udev_device_get_sysattr_value(device, name) {
                attributes[name] = String(cString: value)
            }
        }
        self.attributes = attributes
        // The polled channels are looked for by name, never read: reading in_accel_x_raw
        // makes the driver wake the chip and wait for a conversion (st_sensors: 2 s at
        // lis3dh's default 1 Hz, per axis).
        var names: Set<String> = []
        var listed = udev_device_get_sysattr_list_entry(device)
        while let e = listed {
            if let name = udev_list_entry_get_name(e) { names.insert(String(cString: name)) }
            listed = udev_list_entry_get_next(e)
        }
        attributeNames = names
    }

    public init(
        syspath: String, sysname: String, devnode: String?, properties: [String: String], attributes: [String: String],
        attributeNames: Set<String> = []
    ) {
        self.syspath = syspath
        self.sysname = sysname
        self.devnode = devnode
        self.properties = properties
        self.attributes = attributes
        self.attributeNames = attributeNames.union(attributes.keys)
    }

    /// Has x, y and z accelerometer channels, polled (`in_accel_*_raw`) or buffered
    /// (`scan_elements/in_accel_*_en`): the test iio-sensor-proxy's udev rule makes.
    public var isAccelerometer: Bool {
        let axes = ["x", "y", "z"]
        return axes.allSatisfy { attributeNames.contains("in_accel_\($0)_raw") }
            || axes.allSatisfy { attributes["scan_elements/in_accel_\($0)_en"] != nil }
    }

    public var hasBufferedAccelerometer: Bool {
        ["x", "y", "z"].allSatisfy { attributes["scan_elements/in_accel_\($0)_en"] != nil } && devnode != nil
    }
}
