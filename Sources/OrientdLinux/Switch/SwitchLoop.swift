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
            var watched = PollSet<Watched>()
            watched.watch(stop.descriptor, for: .readable, as: .stop)
            if let monitor { watched.watch(monitor.descriptor, for: .readable, as: .hotPlug) }
            for (id, entry) in open { watched.watch(entry.device.descriptor, for: .readable, as: .device(id)) }
            let ready: [(slot: Watched, events: PollEvents)]
            do {
                ready = try watched.wait(timeout: nil)
            } catch {
                emit(.warning("tablet-mode switch: poll: \(error); no longer watched"))
                return
            }
            if ready.contains(where: { $0.slot == .stop }) { return }
            if ready.contains(where: { $0.slot == .hotPlug }) { hotPlug() }
            for case (.device(let id), let events) in ready {
                read(id, hungUp: !events.isDisjoint(with: [.hangUp, .error, .invalid]))
            }
        }
    }

    /// What a descriptor in the loop's poll stands for.
    private enum Watched: Equatable {
        case stop, hotPlug
        case device(String)
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
