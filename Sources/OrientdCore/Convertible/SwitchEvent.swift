/// What the tablet-mode switch thread tells the rest of the daemon; the service decides
/// what each means (`OrientationService.applySwitch(_:)`).
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
