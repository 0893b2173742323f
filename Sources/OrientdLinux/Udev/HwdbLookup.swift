import OrientdCore
import OrientdIO

/// What udev's `60-sensor.rules` looks an IIO sensor up by in the hwdb: the modalias of
/// the first parent on the usb, i2c or platform bus, the sensor's `label`, and the
/// machine's DMI modalias. `orientd calibrate` writes its entry for exactly this.
public struct HwdbLookup: Equatable, Sendable {
    /// The IIO device's sysfs path.
    public var syspath: String
    public var parentModalias: String
    public var label: String?
    /// `/sys/class/dmi/id/modalias`; nil on a machine without DMI (a device-tree board).
    public var dmi: String?

    /// The buses `60-sensor.rules` matches the parent on (`SUBSYSTEMS=="usb|i2c|platform"`).
    static let buses: Set<String> = ["usb", "i2c", "platform"]

    /// Nil when no parent on those buses has a modalias: udev then looks nothing up.
    public init?(syspath: String, sysfsRoot: String = "") {
        self.syspath = syspath
        var directory = syspath
        var found: String?
        while let slash = directory.lastIndex(of: "/"), directory.count > "/sys/devices".count {
            directory = String(directory[..<slash])
            let subsystem = SymbolicLink.target(of: sysfsRoot + directory + "/subsystem").map {
                String($0.split(separator: "/").last ?? "")
            }
            if let subsystem, Self.buses.contains(subsystem),
                let modalias = Self.read(sysfsRoot + directory + "/modalias"), !modalias.isEmpty
            {
                found = modalias
                break
            }
        }
        guard let found else { return nil }
        parentModalias = found
        label = Self.read(sysfsRoot + syspath + "/label").flatMap { $0.isEmpty ? nil : $0 }
        dmi = Self.read(sysfsRoot + "/sys/class/dmi/id/modalias").flatMap { $0.isEmpty ? nil : $0 }
    }

    static func read(_ path: String) -> String? {
        guard let bytes = try? WholeFile.read(path, limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingSysfs
    }
}
