/// What keeps a proposed pose from being reported at one reading: the first rule of the
/// classifier's gate (docs/classifier.md, "The gate") that the proposal does not meet yet.
public enum HoldBack: Hashable, Sendable {
    /// Fewer readings than `minimumSamples` have proposed it.
    case readings(have: Int, need: Int)
    /// It has been proposed for less than the hold it needs, which is `seconds` long for
    /// the reason given.
    case hold(seconds: Double, reason: HoldReason)
    /// A disturbance (a tap, a jolt, a swing, a magnitude far from g) came at `at`, less
    /// than `settleTime` before.
    case disturbance(at: Double)
    /// Off face-up or face-down towards an upright pose other than the last: the device
    /// lay flat or was jolted at `since`, less than `flatSettleTime` before.
    case offFlat(since: Double)

    /// Why a proposal needs the hold it needs (`OrientationClassifier`, its `hold`).
    public enum HoldReason: String, Hashable, Sendable {
        /// The first pose after start: `initialHoldTime`.
        case first
        /// Any other change: `holdTime`.
        case usual
        /// From upright to face-up or face-down short of `faceSureTilt`: `faceHoldTime`.
        case steepToFace
        /// From upright to face-up or face-down while walking: `faceHoldTime`.
        case walkingToFace
        /// Back from face-up or face-down to the last upright pose while walking:
        /// `walkingReturnTime`.
        case walkingBack
        /// From face-up or face-down to another upright pose while walking:
        /// `flatSettleTime`.
        case walkingAway
    }
}

extension HoldBack: CustomStringConvertible {
    /// For people: what it waits for, with the parameter that sets it.
    public var description: String {
        switch self {
        case .readings(let have, let need):
            "\(need) readings (minimum-samples; it had \(have))"
        case .hold(let seconds, let reason):
            "its hold of \(Self.seconds(seconds)) s (\(reason.parameter)\(reason.because))"
        case .disturbance(let at):
            "the disturbance at \(Self.seconds(at)) s to settle (settle-time)"
        case .offFlat(let since):
            "the device to rest from lying flat or a jolt at \(Self.seconds(since)) s (flat-settle-time)"
        }
    }

    /// The same rule, whatever its figures: what a trail of readings groups by.
    public var rule: String {
        switch self {
        case .readings: "readings"
        case .hold(_, let reason): "hold-\(reason.rawValue)"
        case .disturbance: "disturbance"
        case .offFlat: "off-flat"
        }
    }

    static func seconds(_ value: Double) -> String { JSONLineWriter.number(value, decimals: 3) }
}

extension HoldBack.HoldReason {
    /// The parameter that sets this hold.
    public var parameter: String {
        switch self {
        case .first: "initial-hold-time"
        case .usual: "hold-time"
        case .steepToFace, .walkingToFace: "face-hold-time"
        case .walkingBack: "walking-return-time"
        case .walkingAway: "flat-settle-time"
        }
    }

    var because: String {
        switch self {
        case .first: ": the first pose"
        case .usual: ""
        case .steepToFace: ": tilted less than face-sure-tilt"
        case .walkingToFace: ": to face-up or face-down while walking"
        case .walkingBack: ": back to the last upright pose while walking"
        case .walkingAway: ": off flat to another upright pose while walking"
        }
    }
}
