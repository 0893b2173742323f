/// source → calibrate → classify → policy → event, for one stream of raw samples.
///
/// Pure: the live daemon, replay, the tests and the benchmarks all drive this one type,
/// so a replayed recording gives exactly the events the live run gave.
public struct OrientationPipeline: Sendable {
    public private(set) var mountMatrix: MountMatrix
    public let natural: NaturalOrientation
    public private(set) var classifier: OrientationClassifier
    public private(set) var policy: ScreenPolicy
    /// The last event emitted; nil until the first certain state.
    public private(set) var current: OrientationEvent?
    /// The time of the last sample seen, for events not caused by a sample.
    public private(set) var lastTime = 0.0
    /// The rotation offered while the lock holds the screen (`RotationSuggestion`).
    public private(set) var suggestion: RotationSuggestion

    public init(
        mountMatrix: MountMatrix = .identity,
        parameters: ClassifierParameters = ClassifierParameters(),
        supported: RotationSet = .all,
        natural: NaturalOrientation = .portrait,
        rotateIn: RotateIn = .tablet,
        suggestionTimeout: Double = 10
    ) {
        self.mountMatrix = mountMatrix
        self.natural = natural
        classifier = OrientationClassifier(parameters: parameters)
        policy = ScreenPolicy(configured: supported, rotateIn: rotateIn)
        suggestion = RotationSuggestion(timeout: suggestionTimeout)
    }

    /// Feeds one raw sample (before the mount matrix); returns an event on a change.
    public mutating func process(_ raw: Sample) -> OrientationEvent? {
        lastTime = raw.time
        guard let pose = classifier.update(time: raw.time, acceleration: mountMatrix.apply(raw.acceleration)) else {
            return nil
        }
        policy.deviceDidChange(to: pose)
        return emit(cause: current == nil ? .start : .sensor)
    }

    /// A reading at rest that showed no motion (`AdaptiveRate.Decision.still`): nothing
    /// for the classifier, but the time moves on, for the events that are not caused by
    /// a sample.
    public mutating func advanceClock(to time: Double) {
        lastTime = time
    }

    /// A new sensor (or the same one back after a hot-plug): a fresh classifier with its
    /// mount matrix. The lock, the screen and the last event stay, so the screen does not
    /// move until the new sensor gives a certain pose.
    public mutating func replaceSensor(mountMatrix: MountMatrix) {
        self.mountMatrix = mountMatrix
        classifier = OrientationClassifier(parameters: classifier.parameters)
    }

    /// The same sensor read again after a pause: a fresh classifier; the lock, the
    /// screen and the last event stay, as with `replaceSensor`.
    public mutating func restartClassifier() {
        classifier = OrientationClassifier(parameters: classifier.parameters)
    }

    /// New classifier parameters (a configuration reload): a fresh classifier, which
    /// finds the pose again; the lock and the screen stay until it does.
    public mutating func setParameters(_ parameters: ClassifierParameters) {
        guard parameters != classifier.parameters else { return }
        classifier = OrientationClassifier(parameters: parameters)
    }

    /// Applies a lock; the event (if anything visible changed) and what the lock did.
    public mutating func lock(_ set: RotationSet) -> (event: OrientationEvent?, outcome: ScreenPolicy.LockOutcome) {
        let outcome = policy.lock(set)
        return (emit(cause: .lock), outcome)
    }

    /// Locks the screen where it is.
    public mutating func lockCurrent() -> OrientationEvent? {
        _ = policy.lockCurrent()
        return emit(cause: .lock)
    }

    public mutating func unlock() -> OrientationEvent? {
        policy.unlock()
        return emit(cause: .unlock)
    }

    public mutating func setSupported(_ set: RotationSet) -> OrientationEvent? {
        policy.setConfigured(set)
        return emit(cause: .configuration)
    }

    /// Puts `owner`'s request on top.
    public mutating func request(_ set: RotationSet, by owner: String) -> OrientationEvent? {
        policy.request(set, by: owner)
        return emit(cause: .request)
    }

    /// Drops `owner`'s request (nothing when it has none).
    public mutating func release(by owner: String) -> OrientationEvent? {
        policy.release(by: owner)
        return emit(cause: .release)
    }

    public mutating func setMode(_ mode: DeviceMode?) -> OrientationEvent? {
        policy.setMode(mode)
        return emit(cause: .mode)
    }

    public mutating func setRotateIn(_ rotateIn: RotateIn) -> OrientationEvent? {
        policy.setRotateIn(rotateIn)
        return emit(cause: .configuration)
    }

    /// Whether `updateSuggestion` could have events: for most samples it cannot, and
    /// asking first spares them building a list.
    public var suggestionMayChange: Bool { current != nil && suggestion.mayChange(with: policy) }

    /// Brings the suggestion in line with the policy after a change; its events. None
    /// before the first certain state.
    public mutating func updateSuggestion() -> [SuggestionEvent] {
        guard current != nil else { return [] }
        return suggestion.update(policy, at: lastTime).map { SuggestionEvent(time: lastTime, change: $0, natural: natural) }
    }

    /// The offer standing, as the event that made it: what a subscriber who comes later
    /// is told after the current orientation.
    public var standingSuggestion: SuggestionEvent? {
        suggestion.offer.map { SuggestionEvent(time: $0.time, change: .offered($0), natural: natural) }
    }

    /// Takes the standing suggestion: the lock moves to the orientation offered, so the
    /// screen turns and stays locked there (Android's rotate button). Nil when nothing
    /// is offered.
    public mutating func acceptSuggestion() -> (event: OrientationEvent?, withdrawn: SuggestionEvent)? {
        guard let offer = suggestion.accept() else { return nil }
        let event = lock(RotationSet(offer.rotation)).event
        return (event, SuggestionEvent(time: lastTime, change: .withdrawn(offer, .accepted), natural: natural))
    }

    /// Seconds a suggestion stands (a configuration reload); 0 makes none.
    public mutating func setSuggestionTimeout(_ seconds: Double) {
        suggestion.timeout = seconds
    }

    /// An event when the visible state differs from the last one emitted. Nothing is
    /// emitted before the classifier's first certain pose.
    private mutating func emit(cause: OrientationEvent.Cause) -> OrientationEvent? {
        guard policy.device != .unknown else { return nil }
        if let current, current.device == policy.device, current.screen == policy.screen,
            current.locked == policy.isLocked
        {
            return nil
        }
        let event = OrientationEvent(
            time: lastTime, device: policy.device, screen: policy.screen, previousScreen: current?.screen,
            natural: natural, locked: policy.isLocked, cause: cause)
        current = event
        return event
    }
}
