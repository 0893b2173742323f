/// The orientation of the panel when the device is in its natural pose.
///
/// Phones and many small tablets are naturally portrait; most 2-in-1s and large tablets
/// are naturally landscape. Only the W3C *names* of rotations depend on it
/// (docs/events.md, "Axes and names"): the poses and angles do not.
public enum NaturalOrientation: String, CaseIterable, Hashable, Sendable {
    case portrait
    case landscape

    /// The W3C orientation type of a rotation on a panel of this natural orientation.
    ///
    /// For a naturally landscape panel W3C leaves portrait-primary as 90° or 270°; orientd
    /// follows Android (and so Chromium): portrait-primary is 270°.
    public func screenType(of rotation: Rotation) -> ScreenOrientationType {
        switch (self, rotation) {
        case (.portrait, .degrees0): .portraitPrimary
        case (.portrait, .degrees90): .landscapePrimary
        case (.portrait, .degrees180): .portraitSecondary
        case (.portrait, .degrees270): .landscapeSecondary
        case (.landscape, .degrees0): .landscapePrimary
        case (.landscape, .degrees90): .portraitSecondary
        case (.landscape, .degrees180): .landscapeSecondary
        case (.landscape, .degrees270): .portraitPrimary
        }
    }

    /// The rotation that has the given W3C type on this panel.
    public func rotation(of type: ScreenOrientationType) -> Rotation {
        Rotation.allCases.first { screenType(of: $0) == type }!
    }
}

/// The four W3C `OrientationType` values.
public enum ScreenOrientationType: String, CaseIterable, Hashable, Sendable {
    case portraitPrimary = "portrait-primary"
    case landscapePrimary = "landscape-primary"
    case portraitSecondary = "portrait-secondary"
    case landscapeSecondary = "landscape-secondary"

    public var isPortrait: Bool { self == .portraitPrimary || self == .portraitSecondary }
}
