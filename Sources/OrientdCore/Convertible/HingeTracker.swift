/// Follows a convertible's hinge from pairs of readings (base, display) and says the
/// mode it implies, with hysteresis so that a lid held near the threshold does not flap:
/// tablet (folded back, tent, stand: the display faces out) once the angle passes
/// `tabletAbove`, laptop again once it falls below `laptopBelow`.
///
/// The angle is reported only while the readings define it; the mode holds through the
/// moments they do not (the machine carried, the hinge upright), and the last defined
/// angle is what the next one is unwrapped against.
///
/// The two sensors are read on their own clocks' ticks: each display reading is paired
/// with the latest base reading (`base(_:at:)`, `display(_:at:)`), if that is recent, or
/// if the base watches for motion itself (`AdaptiveRate`'s watch: it sends only what
/// moved, so its latest reading holds until it sends another).
public struct HingeTracker: Hashable, Sendable {
    public static let tabletAbove = 200.0
    public static let laptopBelow = 185.0
    /// A base reading older than this (seconds) is not paired: the base may have moved
    /// since, and a stale pair would give an angle the hinge never had.
    public static let pairingWindow = 0.25
    /// An angle further than this from the last one is a jump no hinge makes between
    /// two readings: taken only once the next pair agrees with it (within
    /// `jumpAgreement`) and was made with another base reading (unless the base watches:
    /// its reading stands). One pair read while the machine was jolted is not believed,
    /// nor the display's readings paired with one base reading from before a quick fold,
    /// however many agree: believed, that angle would be what the next one is unwrapped
    /// against, and a fold to 355° would read as 0°, a laptop, for good.
    public static let jumpLimit = 45.0
    public static let jumpAgreement = 10.0

    /// The angle of the last pair of readings, nil when they did not define one.
    public private(set) var angle: Double?
    /// The mode the hinge says; nil until a first angle is known.
    public private(set) var mode: DeviceMode?
    private var lastDefined: Double?
    /// The latest base reading, after its mount matrix.
    private var lastBase: Sample?
    /// An angle that jumped from the last one, waiting for the next pair to agree, and
    /// the time of the base reading it was made with.
    private var jump: Jump?

    private struct Jump: Hashable, Sendable {
        var angle: Double
        var baseTime: Double?
    }
    /// The base sensor watches for motion at rest: its latest reading stands however old.
    public private(set) var baseWatches = false

    public init() {}

    /// A base reading (after its mount matrix), `time` on the display's clock.
    public mutating func base(_ reading: Vector3, at time: Double) {
        lastBase = Sample(time: time, acceleration: reading)
    }

    /// The base sensor began or stopped watching for motion (its pace is, or is no
    /// longer, `watch`).
    public mutating func baseWatching(_ watches: Bool) {
        baseWatches = watches
    }

    /// A display reading (after its mount matrix), paired with the latest base reading;
    /// returns the mode when it changed. Without a recent base reading the angle is
    /// undefined and the mode holds.
    public mutating func display(_ reading: Vector3, at time: Double) -> DeviceMode? {
        guard let lastBase, baseWatches || abs(time - lastBase.time) <= Self.pairingWindow else {
            angle = nil
            return nil
        }
        return update(base: lastBase.acceleration, display: reading, baseTime: lastBase.time)
    }

    /// The base sensor is gone: no angle, no mode, until it returns.
    public mutating func forgetBase() {
        self = HingeTracker()
    }

    /// Takes a pair of readings; returns the mode when it changed. `baseTime` tells one
    /// base reading from another; nil: every pair has a base reading of its own.
    public mutating func update(base: Vector3, display: Vector3, baseTime: Double? = nil) -> DeviceMode? {
        guard let raw = HingeAngle.degrees(base: base, display: display) else {
            angle = nil
            return nil
        }
        // A first angle near the seam (`HingeAngle.seam`: closed or folded flat) gives no
        // mode until the hinge leaves it; the screen follows the device meanwhile, as on a
        // plain tablet.
        if lastDefined == nil && min(raw, 360 - raw) < HingeAngle.seam {
            angle = raw
            return nil
        }
        let unwrapped = HingeAngle.unwrapped(raw, previous: lastDefined)
        if let last = lastDefined, abs(unwrapped - last) > Self.jumpLimit {
            let agrees = jump.map { abs(unwrapped - $0.angle) <= Self.jumpAgreement } ?? false
            let anotherBase = baseWatches || baseTime == nil || jump?.baseTime != baseTime
            guard agrees && anotherBase else {
                // A pair that agrees on the same base reading keeps the jump as it was, for
                // the next base reading to confirm.
                if !agrees { jump = Jump(angle: unwrapped, baseTime: baseTime) }
                return nil
            }
        }
        jump = nil
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
