import Foundation
import Testing

@testable import OrientdLinux

/// A sensor let go of is opened again only while its name is still the device it was:
/// read from a directory laid out as /sys/bus/iio/devices (the kernel's own reuse of a
/// number is RealKernelTests' `replacedWhileNotRead`).
@Suite("Which device an IIO name is")
struct IIODeviceIdentityTests {
    @Test("the same directory is the same device; another under the name, or none, is a change that says which")
    func changes() throws {
        let devices = FileManager.default.temporaryDirectory.appendingPathComponent("iio-identity-\(getpid())").path
        try FileManager.default.createDirectory(atPath: devices + "/iio:device0", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: devices) }
        let opened = try #require(IIODeviceIdentity(id: "iio:device0", devices: devices))
        #expect(IIODeviceIdentity.change(of: "iio:device0", opened: opened, devices: devices) == nil)

        // The old one kept while the new one is made, so the file system cannot hand the
        // new one the old one's inode (a real sysfs never does, but ext4 might).
        try FileManager.default.moveItem(atPath: devices + "/iio:device0", toPath: devices + "/old")
        try FileManager.default.createDirectory(atPath: devices + "/iio:device0", withIntermediateDirectories: false)
        let change = IIODeviceIdentity.change(of: "iio:device0", opened: opened, devices: devices)
        #expect(change == "removed; iio:device0 is another device now, plugged since it was let go")

        try FileManager.default.removeItem(atPath: devices + "/iio:device0")
        #expect(IIODeviceIdentity.change(of: "iio:device0", opened: opened, devices: devices) == "removed")
        #expect(IIODeviceIdentity(id: "iio:device0", devices: devices) == nil)
    }

    @Test("no identity at the open (a remote context): never a change")
    func remote() {
        #expect(IIODeviceIdentity.change(of: "iio:device0", opened: nil, devices: "/nonexistent") == nil)
    }
}
