import OrientdCore

/// The four W3C orientation types (Capacitor's `OrientationType`), under the name apps
/// know; a program needs to import only this module.
public typealias OrientationType = ScreenOrientationType

/// Where the screen is, as the W3C `screen.orientation` and Capacitor's
/// `ScreenOrientation.orientation()` give it: the type and the angle the content is
/// turned by (0, 90, 180, 270; clockwise, as the W3C counts it).
public struct ScreenOrientationResult: Hashable, Sendable, CustomStringConvertible {
    public var type: OrientationType
    public var angle: Int

    public init(type: OrientationType, angle: Int) {
        self.type = type
        self.angle = angle
    }

    public var description: String { "\(type.rawValue) (\(angle)°)" }
}
