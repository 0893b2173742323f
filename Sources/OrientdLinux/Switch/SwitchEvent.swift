import OrientdCore

/// What the tablet-mode switch thread tells the rest of the daemon.
public enum SwitchEvent: Sendable {
    /// An input device with `SW_TABLET_MODE` was opened; its position now.
    case attached(TabletModeSwitch, DeviceMode)
    /// The switch moved (the lid folded back, the keyboard detached or reattached).
    case toggled(TabletModeSwitch, DeviceMode)
    /// The device went away (unplugged, a detachable keyboard's dock) or failed.
    case detached(TabletModeSwitch, reason: String)
    /// Something a person should know: a switch that cannot be opened, no hot-plug.
    case warning(String)
}

/// An input device that reports the kernel's tablet-mode switch.
public struct TabletModeSwitch: Hashable, Sendable {
    /// udev's name for it: `event7`.
    public var id: String
    /// The driver's name for it: `Intel Virtual Switches`.
    public var name: String
    /// `/dev/input/event7`.
    public var node: String

    public init(id: String, name: String, node: String) {
        self.id = id
        self.name = name
        self.node = node
    }
}
