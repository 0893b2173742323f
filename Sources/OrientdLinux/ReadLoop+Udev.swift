import OrientdCore
import OrientdIO

/// What udev says of the sensors: which devices are announced, when one being read went
/// away or must be opened again, and waiting for udev to finish with one that failed.
extension ReadLoop {
    /// Whether the sensor, let go of (a pause, a dead buffer given up or tried again), is
    /// another device now, and so said lost. Nothing of it held open, the kernel may have
    /// given its name to a device plugged since, one udev has yet to set up (libiio's
    /// writes refused, EACCES) or has yet to say the first one went: opened by the old
    /// name, it would be read as the sensor it replaced. udev's remove is awaited, so it
    /// is looked for again as udev sees it.
    mutating func replaced(_ id: String, opened identity: IIODeviceIdentity?) -> Bool {
        guard let change = IIODeviceIdentity.change(of: id, opened: identity) else { return false }
        emit(.changed(.lost(reason: change), device: id))
        awaitUdev(on: id)
        return true
    }

    /// After the device failed under the reader: waits until udev has said it was removed,
    /// or has nothing more to say (its queue is empty), for at most 10 s, so that the
    /// device is looked for again as udev sees it. Looked for at once, the same name could
    /// be found while the kernel takes it down and udev still has it: opened, then lost
    /// again (an extra lost and attached on the real kernel, under load).
    mutating func awaitUdev(on id: String) {
        guard let monitor, let udev else { return }
        let deadline = MonotonicClock.now + 10
        while MonotonicClock.now < deadline {
            // Read before the drain: once the queue is empty its events are all sent.
            let settled = udev.isSettled
            var removed = false
            while let event = monitor.receive() {
                note(event)
                if event.device.sysname == id && event.action == .remove { removed = true }
            }
            if removed || settled { return }
            let wake = wait(milliseconds: 50)
            if wake.stop { return }
            if wake.gate { _ = drainGate() }
        }
    }

    /// Drains udev's monitor, keeping track of what was removed and added (`note`), and
    /// says whether what it said ends reading `id`: it went away, or a `change` gave it
    /// another mount matrix (`orientd calibrate --apply`, or a hwdb entry and `udevadm
    /// trigger`): it is then opened again with it, no restart needed.
    mutating func drainUdev(for id: String) -> ReadEnd? {
        guard let monitor else { return nil }
        var end: ReadEnd?
        while let event = monitor.receive() {
            note(event)
            guard event.device.sysname == id else { continue }
            if event.action == .remove {
                end = .lost("removed")
            } else if event.action == .change, configuration.mountMatrixOverride == nil, end == nil,
                event.device.properties["ACCEL_MOUNT_MATRIX"] != mountMatrixProperty
            {
                let matrix = event.device.properties["ACCEL_MOUNT_MATRIX"].map { "ACCEL_MOUNT_MATRIX=\($0)" } ?? "none"
                end = .lost("udev changed its mount matrix (now \(matrix)); opening it again")
            }
        }
        return end
    }

    /// Which device of that name it is: udev's `USEC_INITIALIZED`, set once per device when
    /// udev first sees it ("" where there is none, as under umockdev: the name alone).
    static func instance(of device: UdevDevice?) -> String {
        device?.properties["USEC_INITIALIZED"] ?? ""
    }

    mutating func note(_ event: UdevMonitor.Event) {
        switch event.action {
        case .remove: announced?[event.device.sysname] = nil
        case .add, .change: announced?[event.device.sysname] = Self.instance(of: event.device)
        default: break
        }
    }
}
