/// Follows a convertible's hinge from pairs of readings (base, display) and says the
/// mode it implies, with hysteresis so that a lid held near the threshold does not flap:
/// tablet (folded back, tent, stand: the display faces out) once the angle passes
/// `tabletAbove`, laptop again once it falls below `laptopBelow`.
///
/// The angle is reported only while the readings define it; the mode holds through the
/// moments they do not (the machine carried, the hinge upright), and the last defined
/// angle is what the next one is unwrapped against.
public struct HingeTracker: Hashable, Sendable {
    public static let tabletAbove = 200.0
    public static let laptopBelow = 185.0

    /// The angle of the last pair of readings, nil when they did not define one.
    public private(set) var angle: Double?
    /// The mode the hinge says; nil until a first angle is known.
    public private(set) var mode: DeviceMode?
    private var lastDefined: Double?

    public init() {}

    /// Takes a pair of readings; returns the mode when it changed.
    public mutating func update(base: Vector3, display: Vector3) -> DeviceMode? {
        guard let raw = HingeAngle.degrees(base: base, display: display) else {
            angle = nil
            return nil
        }
        let unwrapped = HingeAngle.unwrapped(raw, previous: lastDefined)
        angle = unwrapped
        lastDefined = unwrapped
        let next: DeviceMode
        switch mode {
        case .tablet?: next = unwrapped < Self.laptopBelow ? .laptop : .tablet
        case .laptop?, nil: next = unwrapped > Self.tabletAbove ? .tablet : .laptop
        }
        defer { mode = next }
        return next != mode ? next : nil
    }
}
