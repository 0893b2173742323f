/// A systemd hwdb entry that gives one machine's accelerometer its mount matrix, written
/// as systemd's own `60-sensor.hwdb` writes them, so that it can go upstream as it is.
///
/// udev's `60-sensor.rules` looks the sensor up by
/// `sensor:[LABEL:]modalias:PARENT-MODALIAS:DMI-MODALIAS`; the entry matches the parent's
/// bus and id and the machine's vendor and product (and, where the product name is a
/// firmware placeholder, the BIOS version and date, as upstream entries do). udev puts
/// each value into that key with its unsafe characters replaced (`key(modalias:dmi:label:)`),
/// and the entry is written from the key as udev builds it, not from sysfs as it reads.
public struct HwdbEntry: Equatable, Sendable {
    /// The match line: `sensor:modalias:acpi:BOSC0200*:dmi:*:svnAcer:pnOne10:*`.
    public var match: String
    public var matrix: MountMatrix

    /// Product names that firmware leaves as placeholders: they match thousands of machines.
    static let placeholders: Set<String> = [
        "", "TobefilledbyO.E.M.", "Defaultstring", "SystemProductName", "Notapplicable", "NotSpecified", "None", "Type1ProductConfigId",
    ]

    /// - Parameters:
    ///   - modalias: the `modalias` of the sensor's parent device (`platform:HID-SENSOR-200073`).
    ///   - dmi: `/sys/class/dmi/id/modalias`, nil on a machine without DMI (a device-tree board).
    ///   - label: the sensor's `label` attribute when it has one (udev then looks it up by it).
    public init(modalias: String, dmi: String?, label: String?, matrix: MountMatrix) {
        self.matrix = matrix
        // The bus and the device id; what follows (an ACPI compatible id ...) varies.
        let parts = Self.asUdevSubstitutes(modalias).split(separator: ":", omittingEmptySubsequences: false)
        let device = parts.prefix(2).map { Self.literal($0) }.joined(separator: ":")
        let labelled = label.map { $0.isEmpty ? "" : "\(Self.literal(Self.asUdevSubstitutes($0))):" } ?? ""
        var match = "sensor:" + labelled + "modalias:\(device)*"
        if let dmi { match += ":" + Self.dmiPattern(Self.asUdevSubstitutes(dmi)) }
        self.match = match
    }

    /// The key `60-sensor.rules` looks the sensor up by, as udev builds it.
    public static func key(modalias: String, dmi: String?, label: String?) -> String {
        let labelled = label.map { $0.isEmpty ? "" : "\(asUdevSubstitutes($0)):" } ?? ""
        return "sensor:" + labelled + "modalias:\(asUdevSubstitutes(modalias)):\(asUdevSubstitutes(dmi ?? ""))"
    }

    /// A sysfs value as udev puts it into a rule's `$attr{…}`: characters outside letters,
    /// digits and `#+-.:=@_/ $%?,` become `_`, whitespace a space (`udev_replace_chars`
    /// with `UDEV_ALLOWED_CHARS_INPUT`). Measured on Debian 12's udev 252 and a real
    /// kernel: the DMI product `StandardPC(Q35+ICH9,2009)` is looked up as
    /// `StandardPC_Q35+ICH9,2009_`; systemd's own entries write `of:NaccelerometerT_null_C…`.
    public static func asUdevSubstitutes(_ value: String) -> String {
        String(
            value.map { character -> Character in
                guard character.isASCII else { return character }  // valid UTF-8 is kept
                if character.isLetter || character.isNumber || "#+-.:=@_/ $%?,".contains(character) { return character }
                return character.isWhitespace ? " " : "_"
            })
    }

    /// The entry as a hwdb file holds it: the match line, then the property indented.
    public var text: String { "\(match)\n ACCEL_MOUNT_MATRIX=\(matrix)\n" }

    /// `dmi:*:svnVENDOR:pnPRODUCT:*` from the machine's DMI modalias.
    static func dmiPattern(_ modalias: String) -> String {
        // Each field is a key and its value (drivers/firmware/dmi-id.c); no key is the
        // start of another's field, so the first that fits is the field's.
        let keys = ["bvn", "bvr", "bd", "br", "efr", "svn", "pn", "pvr", "rvn", "rn", "rvr", "cvn", "ct", "cvr", "sku"]
        let fields = modalias.split(separator: ":").dropFirst().map { field in
            let key = keys.first { field.hasPrefix($0) }
            return (key: key, value: String(field.dropFirst(key?.count ?? 0)))
        }
        let product = fields.first { $0.key == "pn" }?.value ?? ""
        let wanted: Set<String> = placeholders.contains(product) ? ["bvr", "bd", "svn", "pn"] : ["svn", "pn"]
        // The wanted fields in their order; a * stands for any fields between two of them.
        var pattern = "dmi:*"
        var last: Int?
        for (index, field) in fields.enumerated() {
            guard let key = field.key, wanted.contains(key) else { continue }
            if let last, last + 1 != index { pattern += ":*" }
            pattern += ":\(key)\(literal(field.value))"
            last = index
        }
        return pattern + ":*"
    }

    /// A value as a hwdb pattern that matches it: glob characters stand for themselves
    /// only through `?`.
    static func literal(_ value: some StringProtocol) -> String {
        String(value.map { "*?[]\\".contains($0) ? "?" : $0 })
    }
}
