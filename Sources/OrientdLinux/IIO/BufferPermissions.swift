#if canImport(Glibc)
    import Glibc
#endif

/// Which of the files a buffered read needs this process may not use, when setting the
/// buffer up was refused (EACCES): libiio names no file, and the cause is nearly always
/// udev's rule (60-orientd.rules) not yet, or never, applied to the device.
public enum BufferPermissions {
    /// A file the read needs and may not use: its path under the device, and its owner,
    /// group and mode as they are now.
    public struct Denied: Equatable, Sendable {
        public var path: String
        public var owner: String
        public var group: String
        public var mode: UInt32
        public var write: Bool

        public init(path: String, owner: String, group: String, mode: UInt32, write: Bool) {
            self.path = path
            self.owner = owner
            self.group = group
            self.mode = mode
            self.write = write
        }
    }

    /// The attributes libiio writes to set a buffer up, relative to the device's sysfs
    /// directory; those the device does not have are not looked at.
    static let written = [
        "buffer/enable", "buffer/length", "buffer/watermark", "trigger/current_trigger",
        "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en", "scan_elements/in_accel_z_en",
        "scan_elements/in_timestamp_en",
    ]

    /// What this process may not use, of the device at `syspath` and its node `node`.
    public static func denied(syspath: String, node: String) -> [Denied] {
        var out: [Denied] = []
        for (path, write) in written.map({ ("\(syspath)/\($0)", true) }) + [(node, false)] {
            var info = stat()
            guard stat(path, &info) == 0, access(path, write ? W_OK : R_OK) != 0 else { continue }
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "\(info.st_uid)"
            let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(info.st_gid)"
            let shown = path.hasPrefix(syspath + "/") ? String(path.dropFirst(syspath.count + 1)) : path
            out.append(Denied(path: shown, owner: owner, group: group, mode: UInt32(info.st_mode) & 0o7777, write: write))
        }
        return out
    }

    /// Says which files, with their owner, group and mode, and what sets them.
    public static func explanation(_ denied: [Denied]) -> String {
        guard !denied.isEmpty else { return "" }
        let shown = { (file: Denied) in "\(file.path) (\(file.owner):\(file.group) \(String(file.mode, radix: 8)))" }
        var parts: [String] = []
        let unwritable = denied.filter(\.write).map(shown)
        let unreadable = denied.filter { !$0.write }.map(shown)
        if !unwritable.isEmpty { parts.append("not writable by this user: " + unwritable.joined(separator: ", ")) }
        if !unreadable.isEmpty { parts.append("not readable by this user: " + unreadable.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
            + "; udev's rule 60-orientd.rules gives them to the orientd group: is it installed, and has udev applied it"
            + " since (udevadm trigger --subsystem-match=iio)?"
    }
}
