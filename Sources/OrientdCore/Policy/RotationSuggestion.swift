/// Android 9's rotate button, as a state: while the user's lock holds the screen and the
/// device settles in another orientation the screen could take
/// (`ScreenPolicy.suggestion`), that orientation is offered, and the offer is withdrawn
/// when the device moves on, the lock goes or another layer makes it moot, it is
/// accepted, or `timeout` seconds pass.
///
/// An offer is made only when the device settles in a new pose, once: not when a lock is
/// set while the device points elsewhere (the user just chose that), and not again after
/// it timed out or was withdrawn until the device moves. The pose is the classifier's,
/// already settled (hysteresis, hold time), so a tap or a bump never makes an offer.
/// Times are the samples' clock, so a replay offers and withdraws as the live run did.
public struct RotationSuggestion: Hashable, Sendable {
    public struct Offer: Hashable, Sendable {
        /// The screen orientation offered.
        public var rotation: Rotation
        /// When it was offered.
        public var time: Double
        /// The pose that made it.
        public var device: DeviceOrientation
    }

    /// Why an offer ended.
    public enum Withdrawal: String, Hashable, Sendable {
        /// Nobody took it within the timeout.
        case timeout
        /// `accept` took it: the lock moved to the orientation offered.
        case accepted
        /// The device moved on: back, or to another pose (a new offer may follow).
        case device
        /// The lock was lifted: the screen follows the device by itself.
        case unlocked
        /// Another layer changed (the lock's set, a request, the supported set, the mode).
        case layers
    }

    public enum Change: Hashable, Sendable {
        case offered(Offer)
        case withdrawn(Offer, Withdrawal)
    }

    /// Seconds an offer stands; 0 makes none.
    public var timeout: Double
    /// The offer standing, if any.
    public private(set) var offer: Offer?
    /// The pose at the last update: an offer needs a new one.
    private var pose = DeviceOrientation.unknown

    public init(timeout: Double = 10) {
        self.timeout = timeout
    }

    /// Brings the offer in line with the policy after any change (a sample, a command, a
    /// mode) at `time`. Callers on the hot path ask `mayChange(with:)` first.
    public mutating func update(_ policy: ScreenPolicy, at time: Double) -> [Change] {
        var changes: [Change] = []
        // The first pose after start is not a turn: a lock restored at boot offers nothing.
        let settled = pose != .unknown && policy.device != pose
        pose = policy.device
        let candidate = timeout > 0 ? policy.suggestion : nil
        if let standing = offer {
            if candidate == standing.rotation && policy.device == standing.device {
                guard time - standing.time >= timeout else { return [] }
                offer = nil
                return [.withdrawn(standing, .timeout)]
            }
            let reason: Withdrawal =
                !policy.isLocked ? .unlocked : policy.device != standing.device ? .device : .layers
            offer = nil
            changes.append(.withdrawn(standing, reason))
        }
        if let candidate, settled {
            let new = Offer(rotation: candidate, time: time, device: policy.device)
            offer = new
            changes.append(.offered(new))
        }
        return changes
    }

    /// Whether `update` could change anything: not with nothing standing and the same
    /// pose, which is most samples (`update` would find nothing to withdraw, and no new
    /// pose to offer for). Asked before `update`, so that they build no list:
    /// working out `policy.suggestion`, or an empty list, for each cost 2.5 % and 8 % of
    /// `replay --fast`'s instructions.
    public func mayChange(with policy: ScreenPolicy) -> Bool {
        offer != nil || policy.device != pose
    }

    /// Takes the standing offer, ending it; nil when there is none.
    public mutating func accept() -> Offer? {
        guard let standing = offer else { return nil }
        offer = nil
        return standing
    }
}
