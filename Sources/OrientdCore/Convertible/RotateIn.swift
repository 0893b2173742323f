/// When the screen follows the device (`rotate-in`).
public enum RotateIn: String, CaseIterable, Hashable, Sendable {
    /// Only in tablet mode, and whenever the mode is unknown: on a machine that cannot
    /// tell its mode this behaves as `always`, so plain tablets need no setting.
    case tablet
    /// In every mode: the mode is reported but does not hold the screen.
    case always
}
