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
