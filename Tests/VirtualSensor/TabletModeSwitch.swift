import CEvdev
import Glibc

/// A 2-in-1's tablet-mode switch made through /dev/uinput (with libevdev's uinput
/// support): a real evdev device with `SW_TABLET_MODE`, which udev tags
/// `ID_INPUT_SWITCH=1` and orientd reads, as a convertible's ACPI or EC driver would make
/// it. Destroying it unplugs it.
final class TabletModeSwitch {
    private var device: OpaquePointer?
    private(set) var isTablet: Bool

    init(tablet: Bool) {
        isTablet = tablet
    }

    /// Makes the device and reports its initial position.
    func plug() throws(VirtualDeviceError) {
        guard device == nil else { return }
        guard let prototype = libevdev_new() else { throw VirtualDeviceError("libevdev_new failed") }
        defer { libevdev_free(prototype) }
        libevdev_set_name(prototype, "orientd virtual tablet-mode switch")
        libevdev_set_id_bustype(prototype, Int32(BUS_VIRTUAL))
        libevdev_set_id_vendor(prototype, 0xFEED)
        libevdev_set_id_product(prototype, 0x5717)
        libevdev_enable_event_code(prototype, UInt32(EV_SW), UInt32(SW_TABLET_MODE), nil)
        var made: OpaquePointer?
        let result = libevdev_uinput_create_from_device(prototype, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &made)
        guard result == 0, let made else {
            throw VirtualDeviceError(
                "/dev/uinput refused the tablet-mode switch: \(String(cString: strerror(-result))) (is the uinput module loaded? modprobe uinput)"
            )
        }
        device = made
        try report()
    }

    func unplug() {
        guard let device else { return }
        libevdev_uinput_destroy(device)
        self.device = nil
    }

    /// Moves the switch (reported at once when plugged; kept for the next plug if not).
    func set(tablet: Bool) throws(VirtualDeviceError) {
        isTablet = tablet
        if device != nil { try report() }
    }

    private func report() throws(VirtualDeviceError) {
        guard let device else { return }
        let result = libevdev_uinput_write_event(device, UInt32(EV_SW), UInt32(SW_TABLET_MODE), isTablet ? 1 : 0)
        let synced = result == 0 ? libevdev_uinput_write_event(device, UInt32(EV_SYN), UInt32(SYN_REPORT), 0) : result
        if synced != 0 { throw VirtualDeviceError("writing the tablet-mode switch: \(String(cString: strerror(-synced)))") }
    }
}
