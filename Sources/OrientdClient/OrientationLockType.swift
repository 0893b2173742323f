/// What an app may ask the screen to keep to: the W3C `OrientationLockType` values,
/// which Capacitor's `lock` takes too.
public enum OrientationLockType: String, CaseIterable, Hashable, Sendable {
    case any
    case natural
    case landscape
    case portrait
    case portraitPrimary = "portrait-primary"
    case portraitSecondary = "portrait-secondary"
    case landscapePrimary = "landscape-primary"
    case landscapeSecondary = "landscape-secondary"
}
