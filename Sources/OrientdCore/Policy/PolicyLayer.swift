/// The layers that decide the screen, bottom to top (docs/layers.md, "Layers"): the device's
/// pose, the configured set, the user's rotation lock, the newest app request, and the
/// machine's mode. `status` names the one that decided where the screen is.
public enum PolicyLayer: String, CaseIterable, Hashable, Sendable {
    /// The pose the accelerometer gives: the screen follows it where the layers above allow.
    case device
    /// The configured set (`supported`): what the screen may take at all.
    case supported
    /// The user's rotation lock: global and saved.
    case lock
    /// The newest request of a connected client: lasts as long as its connection.
    case request
    /// A convertible in laptop mode: the screen does not follow the device.
    case mode
}
