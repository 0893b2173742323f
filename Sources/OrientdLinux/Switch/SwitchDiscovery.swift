import CEvdev
import OrientdCore
import SystemPackage

/// Finds the kernel's tablet-mode switches among udev's input devices: event nodes udev
/// marks as switches (`ID_INPUT_SWITCH`, which its input_id builtin sets for anything
/// with EV_SW) that have `SW_TABLET_MODE`. Lid and dock switches are left alone.
public enum SwitchDiscovery {
    enum Opened {
        case tabletModeSwitch(TabletModeSwitch, EvdevDevice)
        /// A switch, but not a tablet-mode one (a lid switch).
        case other
        case failed(node: String, Errno)
    }

    /// nil when `device` is no switch event node at all.
    static func open(_ device: UdevDevice) -> Opened? {
        guard device.properties["ID_INPUT_SWITCH"] == "1", let node = device.devnode, node.hasPrefix("/dev/input/event") else {
            return nil
        }
        let evdev: EvdevDevice
        do {
            evdev = try EvdevDevice(path: node)
        } catch {
            return .failed(node: node, error)
        }
        guard evdev.has(switch: SW_TABLET_MODE) else { return .other }
        return .tabletModeSwitch(TabletModeSwitch(id: device.sysname, name: evdev.name, node: node), evdev)
    }

    static func mode(_ device: EvdevDevice) -> DeviceMode {
        device.value(ofSwitch: SW_TABLET_MODE) == 1 ? .tablet : .laptop
    }

    /// Why a switch device cannot be read, for a person.
    static func message(node: String, _ error: Errno) -> String {
        let hint = error == .permissionDenied ? " (orientd's user must be in group 'input')" : ""
        return "cannot open the switch device \(node): \(error)\(hint); its tablet mode is not read"
    }

    /// What `list` shows: each tablet-mode switch and its position now, or why a switch
    /// device could not be read.
    public static func survey() throws(UdevError) -> [(node: String, result: Result<(TabletModeSwitch, DeviceMode), Errno>)] {
        try Udev().devices(subsystem: "input").compactMap { device in
            switch open(device) {
            case .tabletModeSwitch(let found, let evdev)?: (found.node, .success((found, mode(evdev))))
            case .failed(let node, let error)?: (node, .failure(error))
            case .other?, nil: nil
            }
        }
    }
}
