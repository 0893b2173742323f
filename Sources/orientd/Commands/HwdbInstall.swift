import Glibc
import OrientdCore
import OrientdDaemon
import OrientdLinux
import SystemPackage

/// Puts a calibration's hwdb entry in force as the hwdb's own instructions say: a file
/// of orientd's own in /etc/udev/hwdb.d (never the distribution's 60-sensor.hwdb; 61
/// sorts after it, so the entry wins), `systemd-hwdb update`, then `udevadm trigger` for
/// the device, whose `change` a running orientd follows by reading the sensor again.
enum HwdbInstall {
    static let directory = "/etc/udev/hwdb.d"

    static func path(for location: SensorLocation) -> String {
        "\(directory)/61-orientd-\(location == .base ? "base" : "display").hwdb"
    }

    /// The commands that undo `install`, for people.
    static func undo(path: String, syspath: String) -> String {
        "rm \(path) && systemd-hwdb update && udevadm control --reload && udevadm trigger --action=change --settle \(syspath)"
    }

    static func install(_ entry: HwdbEntry, comment: [String], path: String, syspath: String) throws(CalibrationFailure) {
        let text = comment.map { "# \($0)\n" }.joined() + entry.text
        // Written whole under another name, then renamed: udev never reads half an entry.
        let temporary = path + ".new"
        do {
            if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw Errno(rawValue: errno) }
            let file = try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try file.writeAll(Array(text.utf8)) }
            if rename(temporary, path) != 0 { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary)
            throw CalibrationFailure("cannot write \(path): \(error)", status: .cannotCreate)
        }
        try run(["systemd-hwdb", "update"])
        // udevd looks for a new hwdb.bin at most every 3 s, before an event; a trigger
        // sooner after the last event would be looked up in the old one.
        try run(["udevadm", "control", "--reload"])
        try run(["udevadm", "trigger", "--action=change", "--settle", syspath])
    }

    static func run(_ arguments: [String]) throws(CalibrationFailure) {
        do {
            try Tool.run(arguments)
        } catch {
            throw CalibrationFailure(error.description, status: .failure)
        }
    }
}
