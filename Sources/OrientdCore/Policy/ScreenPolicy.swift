/// Decides the screen orientation from the device pose and the lock, the way the
/// platforms orientd follows do (README, "Lock words"):
///
/// - the effective set is the configured (supported) set intersected with the lock;
///   when that is empty the lock wins (iOS 16's rule) and the caller is told;
/// - the screen follows the device pose when the pose is in the effective set;
///   otherwise it stays where it is if that is allowed, else it moves at once to the
///   preferred member (as Capacitor's `lock` rotates at once);
/// - face-up, face-down and unknown never move the screen;
/// - `unlock` restores the configured set and re-evaluates the current pose at once.
///
/// Lock, unlock and a new configured set are operations, so the control channel and a
/// configuration reload drive the same rules as the command-line flags.
public struct ScreenPolicy: Hashable, Sendable {
    /// The set the device supports when nothing is locked (`--supported`).
    public private(set) var configured: RotationSet
    /// The set of the current lock, nil when unlocked.
    public private(set) var lock: RotationSet?
    /// The last device pose seen.
    public private(set) var device: DeviceOrientation = .unknown
    /// The screen orientation.
    public private(set) var screen: Rotation

    /// What a lock did.
    public struct LockOutcome: Hashable, Sendable {
        /// The screen moved because its orientation was no longer allowed.
        public var screenChanged: Bool
        /// The lock and the configured set had nothing in common, so the lock alone
        /// decides (iOS 16's rule); worth a warning.
        public var overridesConfigured: Bool
    }

    /// - Parameters:
    ///   - configured: the supported set; must not be empty.
    ///   - screen: where the screen is at start; by default the preferred member of the
    ///     configured set (the natural orientation when it is allowed), which is what a
    ///     freshly started display shows.
    public init(configured: RotationSet = .all, screen: Rotation? = nil) {
        precondition(!configured.isEmpty, "a supported set cannot be empty")
        self.configured = configured
        self.screen = screen ?? configured.preferred(near: nil)!
    }

    /// The rotations the screen may take now.
    public var effective: RotationSet {
        guard let lock else { return configured }
        let both = configured.intersection(lock)
        return both.isEmpty ? lock : both
    }

    public var isLocked: Bool { lock != nil }

    /// Takes a new device pose; returns true when the screen moved.
    @discardableResult
    public mutating func deviceDidChange(to pose: DeviceOrientation) -> Bool {
        device = pose
        return reevaluate()
    }

    /// Allows only `set` until `unlock()`; moves the screen at once if it must.
    public mutating func lock(_ set: RotationSet) -> LockOutcome {
        precondition(!set.isEmpty, "a lock cannot be empty")
        lock = set
        let overrides = configured.intersection(set).isEmpty
        return LockOutcome(screenChanged: reevaluate(), overridesConfigured: overrides)
    }

    /// Locks the screen where it is now (a desktop's rotation-lock toggle).
    public mutating func lockCurrent() -> LockOutcome {
        lock(RotationSet(screen))
    }

    /// Restores the configured set and re-evaluates the current pose; true when the
    /// screen moved.
    @discardableResult
    public mutating func unlock() -> Bool {
        lock = nil
        return reevaluate()
    }

    /// Replaces the configured set (a configuration reload); the lock stays.
    @discardableResult
    public mutating func setConfigured(_ set: RotationSet) -> Bool {
        precondition(!set.isEmpty, "a supported set cannot be empty")
        configured = set
        return reevaluate()
    }

    private mutating func reevaluate() -> Bool {
        let allowed = effective
        let target: Rotation
        if let rotation = device.rotation, allowed.contains(rotation) {
            target = rotation
        } else if allowed.contains(screen) {
            target = screen
        } else {
            target = allowed.preferred(near: device.rotation ?? screen)!
        }
        defer { screen = target }
        return target != screen
    }
}
