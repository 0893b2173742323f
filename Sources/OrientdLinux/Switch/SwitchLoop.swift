import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The switch thread's state; lives and dies on that thread.
struct SwitchLoop {
    let stop: WakeUp
    let emit: (SwitchEvent) -> Void
    private var udev: Udev?
    private var monitor: UdevMonitor?
    /// The switches open now, by udev name.
    private var open: [String: (tabletSwitch: TabletModeSwitch, device: EvdevDevice, mode: DeviceMode)] = [:]
    /// Devices that could not be opened, so the warning is given once per device.
    private var refused: Set<String> = []

    init(stop: WakeUp, emit: @escaping (SwitchEvent) -> Void) {
        self.stop = stop
        self.emit = emit
    }

    mutating func run() {
        do {
            let udev = try Udev()
            self.udev = udev
            do {
                monitor = try UdevMonitor(udev: udev, subsystem: "input")
            } catch {
                emit(.warning("tablet-mode switch: hot-plug is off: \(error)"))
            }
            for device in try udev.devices(subsystem: "input") { consider(device) }
        } catch {
            emit(.warning("cannot look for a tablet-mode switch: \(error)"))
        }
        guard udev != nil else { return }
        while true {
            let watched = Array(open.keys)
            var fds = [
                pollfd(fd: stop.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: monitor?.descriptor.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            fds += watched.map { pollfd(fd: open[$0]!.device.descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                emit(.warning("tablet-mode switch: poll: \(Errno(rawValue: errno)); no longer watched"))
                return
            }
            if fds[0].revents != 0 { return }
            if fds[1].revents != 0 { hotPlug() }
            for (id, pfd) in zip(watched, fds.dropFirst(2)) where pfd.revents != 0 {
                read(id, hungUp: pfd.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0)
            }
        }
    }

    /// Opens `device` if it is a tablet-mode switch not open yet.
    private mutating func consider(_ device: UdevDevice) {
        guard open[device.sysname] == nil, let opened = SwitchDiscovery.open(device) else { return }
        switch opened {
        case .tabletModeSwitch(let found, let evdev):
            refused.remove(device.sysname)
            let mode = SwitchDiscovery.mode(evdev)
            open[device.sysname] = (found, evdev, mode)
            emit(.attached(found, mode))
        case .failed(let node, let error):
            if refused.insert(device.sysname).inserted { emit(.warning(SwitchDiscovery.message(node: node, error))) }
        case .other:
            break
        }
    }

    private mutating func hotPlug() {
        guard let monitor else { return }
        while let event = monitor.receive() {
            switch event.action {
            case .add, .change: consider(event.device)
            case .remove:
                refused.remove(event.device.sysname)
                close(event.device.sysname, reason: "removed")
            default: break
            }
        }
    }

    /// Reads what the switch sent. A descriptor that hung up and yet reads no error is
    /// closed all the same: poll would report it again at once, forever.
    private mutating func read(_ id: String, hungUp: Bool) {
        guard let entry = open[id] else { return }
        do {
            try entry.device.drain()
        } catch {
            close(id, reason: error == .operationNotSupportedByDevice ? "removed" : "read failed: \(error)")
            return
        }
        if hungUp {
            close(id, reason: "hung up")
            return
        }
        let mode = SwitchDiscovery.mode(entry.device)
        guard mode != entry.mode else { return }
        open[id]?.mode = mode
        emit(.toggled(entry.tabletSwitch, mode))
    }

    private mutating func close(_ id: String, reason: String) {
        guard let entry = open.removeValue(forKey: id) else { return }
        emit(.detached(entry.tabletSwitch, reason: reason))
    }
}
