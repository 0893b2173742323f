import CUmockdev
import Foundation
import OrientdCore
import OrientdLinux
import OrientdTestSupport
import Testing

/// Whether this process runs with umockdev's preload library, without which a testbed
/// cannot redirect what libudev and libiio read.
let umockdevPreloaded: Bool = {
    let preloaded = (ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? "").contains("libumockdev-preload")
    if !preloaded {
        FileHandle.standardError.write(
            Data(
                """

                ************************************************************************
                LiveSensorTests SKIPPED: umockdev's preload library is not loaded.
                Run the tests as README says (make test), which runs
                umockdev-wrapper swift test, so libudev and libiio read a fake sysfs.
                ************************************************************************

                """.utf8))
    }
    return preloaded
}()

/// A umockdev testbed: a fake sysfs, /dev and udev for this process and its children.
/// Process-wide, so the suites that use it run one at a time.
final class Testbed {
    private let bed: OpaquePointer

    /// Its devices have no udev database, so orientd here and in the daemons the tests
    /// start (which inherit the environment) must not wait for udevd to set them up. Set
    /// beside umockdev's own `UMOCKDEV_DIR`, which `umockdev_testbed_new` sets the same way.
    init() {
        bed = OpaquePointer(umockdev_testbed_new())
        setenv(Udev.waitVariable, "no", 1)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(bed)) }

    private var pointer: UnsafeMutablePointer<UMockdevTestbed> { UnsafeMutablePointer(bed) }

    /// The testbed's root: its sysfs is under `root/sys`.
    var root: String { String(cString: umockdev_testbed_get_root_dir(pointer)) }

    /// Adds devices in umockdev's text format (`P:`, `E:`, `A:`, `N:` lines).
    func add(_ description: String) throws {
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_add_from_string(pointer, description, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw TestbedError(description: "umockdev could not add the device: \(message)")
        }
    }

    /// `syspath` is the device's path in the fake sysfs, `/sys/devices/…`.
    /// Values get the newline the kernel ends every attribute with: libiio drops an
    /// attribute's last byte, expecting it.
    ///
    /// An attribute that exists is rewritten in place, as the kernel changes a value:
    /// umockdev's own setter writes a new file and renames it over the old one, which a
    /// reader holding the file open (orientd's polled path) would never see; real sysfs
    /// files keep their inode. A shorter value is padded with spaces (which readers trim)
    /// rather than truncated, so a concurrent read never sees an empty file.
    func setAttribute(_ devpath: String, _ name: String, _ value: String) {
        let text = value.hasSuffix("\n") ? String(value.dropLast()) : value
        let path = root + devpath + "/" + name
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            umockdev_testbed_set_attribute(pointer, devpath, name, text + "\n")
            return
        }
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        let padding = max(0, Int(info.st_size) - text.utf8.count - 1)
        let bytes = Array((text + String(repeating: " ", count: padding) + "\n").utf8)
        _ = pwrite(fd, bytes, bytes.count, 0)
    }

    func setProperty(_ devpath: String, _ name: String, _ value: String) {
        umockdev_testbed_set_property(pointer, devpath, name, value)
    }

    func uevent(_ devpath: String, _ action: String) {
        umockdev_testbed_uevent(pointer, devpath, action)
    }

    /// Removes a device and its /dev node (umockdev leaves the node, and refuses to add
    /// the device again while it is there).
    func remove(_ devpath: String, node: String? = nil) {
        umockdev_testbed_remove_device(pointer, devpath)
        if let node { try? FileManager.default.removeItem(atPath: root + "/dev/" + node) }
    }

    /// Answers a device node's ioctls from a umockdev ioctl tree (`EVIOCGBIT(5) 8 02…`
    /// lines), as a recorded input device would: libevdev's first look at the device.
    func loadIoctl(device: String, _ tree: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-\(UUID().uuidString).ioctl").path
        try tree.write(toFile: path, atomically: true, encoding: .utf8)
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_load_ioctl(pointer, device, path, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw TestbedError(description: "umockdev could not load the ioctl tree for \(device): \(message)")
        }
    }

    /// Writes `bytes` to the other end of a device node: what a reader of the node reads
    /// next, as the kernel's events.
    func send(device: String, _ bytes: [UInt8]) {
        let fd = umockdev_testbed_get_dev_fd(pointer, device)
        precondition(fd >= 0, "\(device) is no emulated device node")
        _ = write(fd, bytes, bytes.count)
    }

    /// Feeds a device node from a umockdev script file (`r 0 <bytes>` lines).
    func loadScript(device: String, path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_load_script(pointer, device, path, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw TestbedError(description: "umockdev could not load the script \(path): \(message)")
        }
    }
}

/// Tests/Fixtures/umockdev, where the device descriptions and scripts live.
let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/umockdev")

func fixture(_ name: String) throws -> String {
    try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
}

struct TestbedError: Error, CustomStringConvertible {
    var description: String
}

/// umockdev device descriptions for the tests.
enum FakeAccelerometer {
    /// A polled IIO accelerometer (no /dev node: polling reads sysfs only, and umockdev
    /// cannot give a node back once its device is removed) at `/sys/devices/platform/NAME.N/iio:deviceN`, reading
    /// the given raw counts with scale 0.009582 m/s² per count (so 1024 counts ≈ 1 g).
    static func polled(
        number: Int = 0, name: String = "bmc150_accel", raw: (Int, Int, Int) = (0, -1024, 0),
        extraAttributes: [String: String] = [:], properties: [String: String] = [:], scale: String? = "0.009582",
        withParent: Bool = true, samplingFrequency: String = "12.500000",
        samplingFrequencyAvailable: String? = "7.810000 15.630000 31.250000 62.500000 125"
    ) -> String {
        var lines = withParent ? ["P: /devices/platform/\(name).\(number)", "E: SUBSYSTEM=platform", ""] : []
        lines += [
            "P: \(devpath(number: number, name: name))",
            "E: DEVNAME=/dev/iio:device\(number)",
            "E: DEVTYPE=iio_device",
            "E: SUBSYSTEM=iio",
            "A: name=\(name)\\n",
            "A: in_accel_x_raw=\(raw.0)\\n",
            "A: in_accel_y_raw=\(raw.1)\\n",
            "A: in_accel_z_raw=\(raw.2)\\n",
            "A: sampling_frequency=\(samplingFrequency)\\n",
        ]
        if let available = samplingFrequencyAvailable { lines.append("A: sampling_frequency_available=\(available)\\n") }
        if let scale { lines.append("A: in_accel_scale=\(scale)\\n") }
        for (k, v) in extraAttributes.sorted(by: { $0.key < $1.key }) { lines.append("A: \(k)=\(v)\\n") }
        for (k, v) in properties.sorted(by: { $0.key < $1.key }) { lines.append("E: \(k)=\(v)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func devpath(number: Int = 0, name: String = "bmc150_accel") -> String {
        "/devices/platform/\(name).\(number)/iio:device\(number)"
    }

    static func syspath(number: Int = 0, name: String = "bmc150_accel") -> String {
        "/sys" + devpath(number: number, name: name)
    }
}
