/// Where a mode came from, most trusted first.
public enum ModeSource: String, CaseIterable, Hashable, Sendable {
    /// The kernel's tablet-mode switch (`SW_TABLET_MODE` on an input device).
    case `switch`
    /// The angle between the display's and the base's accelerometers.
    case hinge
    /// A `mode tablet|laptop` command, for machines with neither.
    case command
}
