/// A change of device pose, screen orientation or lock: the main event of the stream.
///
/// Encoded as one line (docs/events.md, "Events" documents every field):
/// ```
/// {"event":"orientation","time":3.52,"device":"landscape-left","screen":"landscape-primary","angle":90,"locked":false,"previous":"portrait-primary","xrandr":"right","transform":"270","hyprland":3,"cause":"sensor","version":1}
/// ```
public struct OrientationEvent: Hashable, Sendable {
    /// Version of the event schema. Fields are only added within a version; a field
    /// removed or changed in meaning bumps it.
    public static let schemaVersion = 1

    /// What made the event.
    public enum Cause: String, Hashable, Sendable {
        /// The first certain state after start.
        case start
        /// The device moved.
        case sensor
        /// A lock was applied.
        case lock
        /// The lock was lifted.
        case unlock
        /// The supported set changed (configuration reload, `supported`).
        case configuration
        /// A client asked for a set of orientations (`request`).
        case request
        /// A client's request ended: `release`, or its connection closed.
        case release
        /// The convertible went into laptop or tablet mode.
        case mode
    }

    /// Seconds from the start of the stream (the sample's time).
    public var time: Double
    public var device: DeviceOrientation
    public var screen: Rotation
    /// The screen before this event; nil on the first event.
    public var previousScreen: Rotation?
    public var natural: NaturalOrientation
    public var locked: Bool
    public var cause: Cause

    public init(
        time: Double, device: DeviceOrientation, screen: Rotation, previousScreen: Rotation?,
        natural: NaturalOrientation, locked: Bool, cause: Cause
    ) {
        self.time = time
        self.device = device
        self.screen = screen
        self.previousScreen = previousScreen
        self.natural = natural
        self.locked = locked
        self.cause = cause
    }

    /// The W3C type of the screen orientation.
    public var screenType: ScreenOrientationType { natural.screenType(of: screen) }

    /// Did the screen orientation change with this event? (Always true for the first.)
    public var screenChanged: Bool { previousScreen != screen }

    /// The event as one JSON line, newline included.
    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "orientation")
        json.add("time", time)
        json.add("device", device.rawValue)
        json.add("screen", screenType.rawValue)
        json.add("angle", screen.angle)
        json.add("locked", locked)
        json.add("previous", previousScreen.map { natural.screenType(of: $0).rawValue })
        json.add("xrandr", screen.xrandrName)
        json.add("transform", screen.waylandTransform)
        json.add("hyprland", screen.hyprlandTransform)
        json.add("cause", cause.rawValue)
        json.add("version", Self.schemaVersion)
        return json.line()
    }
}
