/// The tablet-mode switches a machine has (some have two: intel-vbtn beside a vendor's
/// driver) and the mode they say together: tablet while any of them says tablet, as
/// libinput reads them, since a driver that knows nothing reports laptop.
public struct SwitchStates: Hashable, Sendable {
    private var states: [String: DeviceMode] = [:]

    public init() {}

    /// A switch's position; nil when the device is gone.
    public mutating func set(_ device: String, _ mode: DeviceMode?) {
        states[device] = mode
    }

    /// Nil while there is no switch.
    public var mode: DeviceMode? {
        if states.isEmpty { return nil }
        return states.values.contains(.tablet) ? .tablet : .laptop
    }

    /// The switches' devices, sorted, for `status`.
    public var devices: [String] { states.keys.sorted() }
}
