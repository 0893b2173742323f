import CVirtualDevices
import Glibc
import SystemPackage

/// A 2-in-1's tablet-mode switch made through /dev/uinput: a real evdev device with
/// `SW_TABLET_MODE`, which udev tags `ID_INPUT_SWITCH=1` and libevdev reads, as a
/// convertible's ACPI or EC driver would make it. Closing the descriptor unplugs it.
final class TabletModeSwitch {
    private var descriptor: FileDescriptor?
    private(set) var isTablet: Bool

    init(tablet: Bool) {
        isTablet = tablet
    }

    var isPlugged: Bool { descriptor != nil }

    /// Makes the device and reports its initial position.
    func plug() throws(VirtualDeviceError) {
        guard descriptor == nil else { return }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open("/dev/uinput", .writeOnly, options: [.closeOnExec, .nonBlocking])
        } catch {
            throw VirtualDeviceError("cannot open /dev/uinput: \(error) (is the uinput module loaded? modprobe uinput)")
        }
        guard vd_uinput_set_evbit(fd.rawValue, EV_SW) == 0, vd_uinput_set_swbit(fd.rawValue, SW_TABLET_MODE) == 0,
            vd_uinput_create(fd.rawValue, "orientd virtual tablet-mode switch", 0xFEED, 0x5717) == 0
        else {
            let error = Errno(rawValue: errno)
            try? fd.close()
            throw VirtualDeviceError("/dev/uinput refused the tablet-mode switch: \(error)")
        }
        descriptor = fd
        try report()
    }

    func unplug() {
        guard let descriptor else { return }
        _ = vd_uinput_destroy(descriptor.rawValue)
        try? descriptor.close()
        self.descriptor = nil
    }

    /// Moves the switch (reported at once when plugged; kept for the next plug if not).
    func set(tablet: Bool) throws(VirtualDeviceError) {
        isTablet = tablet
        if descriptor != nil { try report() }
    }

    private func report() throws(VirtualDeviceError) {
        guard let descriptor else { return }
        var events = [
            input_event(time: timeval(), type: UInt16(EV_SW), code: UInt16(SW_TABLET_MODE), value: isTablet ? 1 : 0),
            input_event(time: timeval(), type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0),
        ]
        let size = MemoryLayout<input_event>.stride * events.count
        let written = events.withUnsafeMutableBytes { bytes in
            Glibc.write(descriptor.rawValue, bytes.baseAddress, size)
        }
        if written != size {
            throw VirtualDeviceError("writing the tablet-mode switch: \(Errno(rawValue: errno))")
        }
    }
}
