/// How a convertible (2-in-1) is being used.
public enum DeviceMode: String, CaseIterable, Hashable, Sendable {
    /// The keyboard faces the user: the screen stays at its natural orientation.
    case laptop
    /// Folded back, detached, tent or stand: the display faces out, and the screen
    /// follows the device.
    case tablet
}
