import CUdev
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Why libudev could not do something.
public struct UdevError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
}

/// A libudev context. Owns the C handle; not Sendable: used on one thread.
public final class Udev {
    let pointer: OpaquePointer

    public init() throws(UdevError) {
        guard let made = udev_new() else { throw UdevError(description: "udev_new failed: \(String(cString: strerror(errno)))") }
        pointer = made
    }

    deinit { udev_unref(pointer) }

    /// The environment variable that, set to `no`, has devices used without waiting for
    /// udevd to set them up.
    public static let waitVariable = "ORIENTD_WAIT_FOR_UDEV"

    /// Every device of a subsystem (`iio`) that udev has initialized: where udevd runs, one
    /// whose rules it has not yet applied is left out, as the enumeration scans sysfs and
    /// would find it at once. udev marks a device initialized before its RUN programs
    /// (orientd's rule's chgrp) have run; only its event says they have, which is why
    /// the read loop also waits for that (`ReadLoop.announced`).
    public func devices(subsystem: String) throws(UdevError) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(pointer) else { throw UdevError(description: "udev_enumerate_new failed") }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        let r = udev_enumerate_scan_devices(enumerate)
        if r < 0 { throw UdevError(description: "scanning udev devices of \(subsystem): \(String(cString: strerror(-r)))") }
        let setUpOnly = setsUpDevices
        var out: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let e = entry {
            if let path = udev_list_entry_get_name(e), let device = udev_device_new_from_syspath(pointer, path) {
                if !setUpOnly || udev_device_get_is_initialized(device) > 0 { out.append(UdevDevice(device)) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(e)
        }
        return out
    }

    /// Whether udevd runs here, so every device gets set up by it before it is used
    /// (libudev's test: its control socket exists). `ORIENTD_WAIT_FOR_UDEV=no` says it
    /// does not for these devices: a test bed's fake sysfs (umockdev's) has no udev
    /// database, so its devices never read as set up, while the host's udevd may run.
    var setsUpDevices: Bool {
        if Environment.value(Self.waitVariable) == "no" { return false }
        guard let queue = udev_queue_new(pointer) else { return false }
        defer { udev_queue_unref(queue) }
        return udev_queue_get_udev_is_active(queue) > 0
    }

    /// Whether udev has no event queued (`udevadm settle`'s test): everything the kernel
    /// announced has been processed and sent to monitors.
    public var isSettled: Bool {
        guard let queue = udev_queue_new(pointer) else { return true }
        defer { udev_queue_unref(queue) }
        return udev_queue_get_queue_is_empty(queue) > 0
    }
}

/// Hot-plug events of one subsystem from udev's netlink socket.
///
/// Owns the C handle; not Sendable: it lives on the thread that waits for events.
public final class UdevMonitor {
    let pointer: OpaquePointer
    let udev: Udev

    public enum Action: String, Sendable {
        case add, remove, change, bind, unbind
    }

    public struct Event: Sendable {
        public var action: Action
        public var device: UdevDevice
    }

    public init(udev: Udev, subsystem: String) throws(UdevError) {
        guard let made = udev_monitor_new_from_netlink(udev.pointer, "udev") else {
            throw UdevError(description: "cannot open udev's netlink monitor: \(String(cString: strerror(errno)))")
        }
        pointer = made
        self.udev = udev
        udev_monitor_filter_add_match_subsystem_devtype(made, subsystem, nil)
        let r = udev_monitor_enable_receiving(made)
        if r < 0 { throw UdevError(description: "cannot receive udev events: \(String(cString: strerror(-r)))") }
    }

    deinit { udev_monitor_unref(pointer) }

    /// Readable when an event waits; poll it with other descriptors. libudev owns it and
    /// closes it with the monitor: never closed here.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: udev_monitor_get_fd(pointer)) }

    /// The next event if one is waiting, else nil, without blocking: the descriptor is
    /// polled first, since not every netlink socket behind libudev is non-blocking
    /// (umockdev's emulation is not).
    public func receive() -> Event? {
        var ready = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 else { return nil }
        guard let device = udev_monitor_receive_device(pointer) else { return nil }
        defer { udev_device_unref(device) }
        guard let actionText = udev_device_get_action(device), let action = Action(rawValue: String(cString: actionText)) else {
            return nil
        }
        return Event(action: action, device: UdevDevice(device))
    }
}
