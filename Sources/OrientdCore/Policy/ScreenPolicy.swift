/// Decides the screen orientation from the device pose and the layers above it, the way
/// the platforms orientd follows do (docs/layers.md, "Layers"):
///
/// 1. The allowed set is made from the top down: the newest request, then the user's
///    lock, then the configured set. Each layer narrows what the one above allows; a
///    layer that would leave nothing is overridden instead (the upper one wins: iOS 16's
///    rule for a view controller against the app, and iOS's rule that an app which
///    supports only landscape shows landscape under the user's rotation lock). When
///    that happens to the configured set under a lock, the caller is told.
/// 2. The screen follows the device pose, except in laptop mode (with `rotate-in
///    tablet`), where it follows the natural orientation as if the device were upright:
///    a convertible turns only when asked.
/// 3. When what it follows is not allowed the screen stays where it is if that is
///    allowed, else it moves at once to the allowed member nearest (as Capacitor's
///    `lock` rotates at once). Face-up, face-down and unknown never move it.
/// 4. Every change of a layer re-evaluates at once: a lock, a request and its release,
///    a new configured set, a change of mode.
/// 5. While the user's lock alone holds the screen away from where the device points,
///    that orientation is a `suggestion` (Android 9's rotate button): the screen the
///    policy would take if the lock were lifted, when it follows the device there.
///
/// `decidedBy` names the layer that put the screen where it is.
public struct ScreenPolicy: Hashable, Sendable {
    /// The set the device supports when nothing is locked (`--supported`).
    public private(set) var configured: RotationSet
    /// The set of the user's lock, nil when unlocked.
    public private(set) var lock: RotationSet?
    /// The clients' requests, oldest first: the last one is in force.
    public private(set) var requests: [ScreenRequest] = []
    /// The convertible's mode; nil when unknown (a plain tablet).
    public private(set) var mode: DeviceMode?
    public private(set) var rotateIn: RotateIn
    /// The last device pose seen.
    public private(set) var device: DeviceOrientation = .unknown
    /// The screen orientation.
    public private(set) var screen: Rotation
    /// The layer that put the screen where it is.
    public private(set) var decidedBy: PolicyLayer = .device

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
    public init(configured: RotationSet = .all, screen: Rotation? = nil, rotateIn: RotateIn = .tablet) {
        precondition(!configured.isEmpty, "a supported set cannot be empty")
        self.configured = configured
        self.rotateIn = rotateIn
        self.screen = screen ?? configured.preferred(near: nil)!
    }

    /// The rotations the screen may take now.
    public var effective: RotationSet { layering.allowed }

    /// The layers in force that gave way to one above them.
    public var overridden: [PolicyLayer] { layering.overridden }

    /// The request in force: the newest.
    public var request: ScreenRequest? { requests.last }

    public var isLocked: Bool { lock != nil }

    /// Rule 5: the orientation to suggest, nil when there is none. Only the lock's doing
    /// counts: a request, the configured set or laptop mode that keeps the screen where
    /// it is would keep it there unlocked too; face-up and face-down point nowhere.
    public var suggestion: Rotation? {
        guard isLocked, let pointed = device.rotation, pointed != screen else { return nil }
        var unlocked = self
        unlocked.unlock()
        return unlocked.screen == pointed ? pointed : nil
    }

    /// Laptop mode holds the screen at the natural orientation.
    public var modeHoldsScreen: Bool { mode == .laptop && rotateIn == .tablet }

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

    /// Lifts the user's lock and re-evaluates the current pose; true when the screen
    /// moved.
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

    /// Puts `owner`'s request on top (replacing its earlier one, as a view controller
    /// presented again comes to the front); true when the screen moved.
    @discardableResult
    public mutating func request(_ set: RotationSet, by owner: String) -> Bool {
        precondition(!set.isEmpty, "a request cannot be empty")
        requests.removeAll { $0.owner == owner }
        requests.append(ScreenRequest(owner: owner, set: set))
        return reevaluate()
    }

    /// Drops `owner`'s request, if it has one; the next newest is in force again. True
    /// when the screen moved.
    @discardableResult
    public mutating func release(by owner: String) -> Bool {
        requests.removeAll { $0.owner == owner }
        return reevaluate()
    }

    /// The convertible's mode changed (nil: unknown again).
    @discardableResult
    public mutating func setMode(_ mode: DeviceMode?) -> Bool {
        self.mode = mode
        return reevaluate()
    }

    @discardableResult
    public mutating func setRotateIn(_ rotateIn: RotateIn) -> Bool {
        self.rotateIn = rotateIn
        return reevaluate()
    }

    /// Rule 1: the allowed set from the top down, the top layer that shaped it, and the
    /// layers that gave way.
    private var layering: (allowed: RotationSet, top: PolicyLayer, overridden: [PolicyLayer]) {
        let layers: [(PolicyLayer, RotationSet?)] = [(.request, request?.set), (.lock, lock), (.supported, configured)]
        var allowed: RotationSet?
        var top = PolicyLayer.supported
        var overridden: [PolicyLayer] = []
        for case (let layer, let set?) in layers {
            guard let above = allowed else {
                allowed = set
                top = layer
                continue
            }
            let both = above.intersection(set)
            if both.isEmpty { overridden.append(layer) } else { allowed = both }
        }
        return (allowed ?? configured, top, overridden)
    }

    private mutating func reevaluate() -> Bool {
        let (allowed, top, _) = layering
        // Rule 2.
        let followed = modeHoldsScreen ? Rotation.degrees0 : device.rotation
        // Rule 3.
        let target: Rotation
        if let followed, allowed.contains(followed) {
            target = followed
            decidedBy = modeHoldsScreen ? .mode : .device
        } else if allowed.contains(screen) {
            target = screen
            if followed != nil { decidedBy = top }
        } else {
            target = allowed.preferred(near: followed ?? screen)!
            decidedBy = top
        }
        defer { screen = target }
        return target != screen
    }
}
