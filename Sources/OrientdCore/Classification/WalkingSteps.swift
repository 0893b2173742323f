/// Whether the device is being carried by someone walking, judged from the magnitude of
/// its readings alone: each step lifts it more than `threshold` away from g and lets it
/// fall back, and four such rises, each at least `spacing` after the last, within
/// `window` are a walk (1.5 steps a second or more; people walk at 1.6–2.2). A hand that
/// lifts a device and turns it round jolts it two or three times in a second, which is
/// not a walk (the simulated lifts of `scripts/evaluate-handling`: with three rises, 50
/// of 80 were taken for walks; with four, none).
public struct WalkingSteps: Sendable {
    /// m/s² from g: a walking hand's steps reach 2–5, a device held still stays within
    /// a few hundredths.
    public static let threshold = 1.0
    /// Seconds between rises counted as steps: one step's bounce can cross twice.
    public static let spacing = 0.25
    /// Seconds within which four rises make a walk.
    public static let window = 2.0

    private let lowSquared: Double
    private let highSquared: Double
    /// The last four rises, the oldest first.
    private var rises = (-Double.infinity, -Double.infinity, -Double.infinity, -Double.infinity)
    private var above = false

    public init(gravity: Double = standardGravity) {
        let low = max(0, gravity - Self.threshold)
        let high = gravity + Self.threshold
        lowSquared = low * low
        highSquared = high * high
    }

    /// Feeds one reading's squared magnitude (no square root per reading).
    public mutating func update(time t: Double, magnitudeSquared: Double) {
        let isAbove = magnitudeSquared > highSquared || magnitudeSquared < lowSquared
        if isAbove, !above, t - rises.3 >= Self.spacing { rises = (rises.1, rises.2, rises.3, t) }
        above = isAbove
    }

    /// Whether four steps came within the last `window` seconds.
    public func isWalking(at t: Double) -> Bool { t - rises.0 <= Self.window }

    /// Forgets the steps (a gap in the readings).
    public mutating func reset() {
        rises = (-Double.infinity, -Double.infinity, -Double.infinity, -Double.infinity)
        above = false
    }
}
