#if canImport(Glibc)
    import Glibc
#endif

/// Which kernel device a local IIO name (`iio:device0`) stands for now: the inode of its
/// sysfs directory.
///
/// libiio reaches a device by its name only. The kernel gives a removed device's number to
/// the next one it registers (a chip bound again, a hub reset, another sensor) once nothing
/// holds the old one open, and gives every new directory an inode of its own: the same name
/// with another inode is another device, whether or not udev has said so yet.
struct IIODeviceIdentity: Equatable {
    /// Where the kernel lists its IIO devices by name.
    static let devices = "/sys/bus/iio/devices"

    let device: UInt64
    let inode: UInt64

    /// The device named `id` now; nil when there is none.
    init?(id: String, devices directory: String = Self.devices) {
        var info = stat()
        guard stat("\(directory)/\(id)", &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Why `id` is no longer the device that was opened as `opened`, or nil while it is
    /// (or when there was no identity to compare: a remote context).
    static func change(of id: String, opened: IIODeviceIdentity?, devices directory: String = Self.devices) -> String? {
        guard let opened else { return nil }
        guard let now = IIODeviceIdentity(id: id, devices: directory) else { return "removed" }
        return now == opened ? nil : "removed; \(id) is another device now, plugged since it was let go"
    }
}
