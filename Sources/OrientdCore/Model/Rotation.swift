/// How far the picture is turned from the panel's natural orientation, counter-clockwise
/// as the W3C `screen.orientation.angle` counts it.
///
/// orientd keeps screen orientations as rotations, not as W3C type names, because the
/// name of a rotation depends on whether the panel is naturally portrait or landscape
/// (see `NaturalOrientation`), while the rotation does not.
public enum Rotation: Int, CaseIterable, Hashable, Sendable, Comparable {
    case degrees0 = 0
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270

    /// The W3C angle: 0, 90, 180 or 270.
    @inlinable public var angle: Int { rawValue }

    /// The name `xrandr --rotate` takes for this rotation.
    public var xrandrName: String {
        switch self {
        case .degrees0: "normal"
        case .degrees90: "right"
        case .degrees180: "inverted"
        case .degrees270: "left"
        }
    }

    /// The Wayland protocol's `wl_output.transform` value (`wlr-randr --transform`,
    /// niri), which counts counter-clockwise, so it is the reverse of the W3C angle.
    /// sway's `output … transform` words count the other way: they are the W3C angle
    /// (measured on sway 1.7 by where a marker lands on the panel; SwayCompositorTests).
    public var waylandTransform: String {
        switch self {
        case .degrees0: "normal"
        case .degrees90: "270"
        case .degrees180: "180"
        case .degrees270: "90"
        }
    }

    /// Hyprland's `monitor …,transform,N` number (the Wayland transform enum).
    public var hyprlandTransform: Int {
        switch self {
        case .degrees0: 0
        case .degrees90: 3
        case .degrees180: 2
        case .degrees270: 1
        }
    }

    /// The smaller angle between two rotations, in quarter turns (0, 1 or 2).
    @inlinable
    public func quarterTurns(to other: Rotation) -> Int {
        let d = abs(rawValue - other.rawValue) / 90
        return d == 3 ? 1 : d
    }

    public static func < (a: Rotation, b: Rotation) -> Bool { a.rawValue < b.rawValue }
}
