/// Every threshold and time constant of `OrientationClassifier`, with its default; each
/// one a user can set has its name, unit, bounds and help in `ClassifierParameter.all`.
///
/// The defaults were chosen by sweeping each parameter (`scripts/sweep-parameters`, see
/// docs/classifier.md, "Parameters") over the labelled recordings in `Recordings/`, where every one
/// must keep zero spurious changes and the 300 ms latency bound, and over real
/// recordings, where the changes per hour of held time and the screen's p95 latency
/// must meet their targets: each sits inside both ranges, on the fast side.
public struct ClassifierParameters: Hashable, Sendable {
    /// Gravity, m/s². Readings are judged against it.
    public var gravity: Double = standardGravity

    /// Time constant of a first low-pass filter over every reading (s), before any
    /// judgement: it averages out vibration (a machine on the same table, an engine under
    /// a car mount, a phone ringing beside the sensor), which would otherwise make every
    /// single reading look like a jolt and keep the pose from ever being decided. A tap
    /// still shows through it as a disturbance, at any rate. 0 turns it off.
    public var vibrationFilter: Double = 0.03

    /// A reading whose magnitude differs from `gravity` by more than this (m/s²) is not
    /// gravity: a tap, a jolt, a swing or free fall. It is left out of the filter and
    /// marks a disturbance. Walking peaks near 3 m/s² and must mostly pass; a tap
    /// reaches 10–30 m/s².
    public var magnitudeTolerance: Double = 3.0

    /// Time constant of the one-pole low-pass filter on accepted readings, seconds.
    /// The filter's weight is dt/(τ + dt), so it behaves the same at any sample rate.
    public var filterTimeConstant: Double = 0.03

    /// A reading further than this (m/s²) from the filtered vector marks a disturbance:
    /// the device is being swung or shaken even if the magnitude looks like gravity.
    public var disturbanceThreshold: Double = 3.5

    /// No change is made until this long (s) after the last disturbance.
    public var settleTime: Double = 0.1

    /// A new pose must be proposed without interruption for this long (s) before it is
    /// reported.
    public var holdTime: Double = 0.12

    /// The first pose after start needs only this hold (s), so the first event comes
    /// quickly (two readings 20 ms apart at 50 Hz: the daemon's first event lands about
    /// 40 ms after exec, within its 50 ms target); it is still subject to
    /// `minimumSamples` and `settleTime`.
    public var initialHoldTime: Double = 0.02

    /// A new pose must be proposed by at least this many consecutive readings (with
    /// distinct timestamps), so a single reading never decides, even at 1 Hz.
    public var minimumSamples: Int = 2

    /// Degrees. Leaving an upright pose for another needs gravity within 45° − this of
    /// the new pose's axis (so 20° means switching 65° away from the old axis and
    /// switching back 65° away from the new one: a 40° dead band around each diagonal).
    public var rotationHysteresis: Double = 20

    /// Degrees. The first upright pose (from unknown, face-up or face-down) needs gravity
    /// within 45° − this of its axis.
    public var initialMargin: Double = 5

    /// Degrees of tilt (screen towards the sky or the floor) at which the device becomes
    /// face-up or face-down.
    public var faceEnterTilt: Double = 78

    /// Degrees of tilt below which a face-up or face-down device may become upright, and
    /// above which no upright pose is changed: in-plane directions are too weak to trust
    /// when the screen faces nearly up or down.
    public var faceExitTilt: Double = 55

    /// Seconds. From an upright pose, face-up or face-down at a tilt short of
    /// `faceSureTilt` must be proposed this long (instead of `holdTime`) before it is
    /// reported: steps swing a device held steeply (60–76°) in a walking hand across
    /// `faceEnterTilt` for a quarter of a second at a time. While walking it applies at
    /// every tilt: a step tips a grip held at 75–85° past `faceSureTilt` too. 0 turns it
    /// off.
    public var faceHoldTime: Double = 0.3

    /// Degrees of tilt from which face-up or face-down needs only `holdTime`: a device
    /// laid down, or held flat, reads this flat at once (not while walking: see
    /// `faceHoldTime`). 90 makes `faceHoldTime` apply to every tilt; at or below
    /// `faceEnterTilt`, to none but while walking.
    public var faceSureTilt: Double = 86

    /// A gap between readings longer than this (s) resets the filter and any pending
    /// change; the reported state stays.
    public var gapReset: Double = 1.5

    /// Seconds. Leaving face-up or face-down for an upright pose other than the last one
    /// reported waits until the device has neither lain flat (tilt at or above
    /// `faceEnterTilt`) nor been jolted (a disturbance) for this long: a device lifted
    /// off a table and turned round in the hand passes through poses nobody holds. Back
    /// to the last upright pose (picked up to read as before) is not delayed. While the
    /// device is carried by someone walking (`walkingReturnTime`), such a pose must also
    /// be proposed this long: a step can hold a steep diagonal grip in it for a tenth of
    /// a second. 0 turns both off.
    public var flatSettleTime: Double = 0.3

    /// Seconds. While the device is carried by someone walking (four steps within 2 s:
    /// the magnitude rising past 1 m/s² from g, the rises at least 0.25 s apart), the
    /// way back from face-up or face-down to the last upright pose must be proposed this
    /// long: a hand that walks with the device held nearly flat dips it past
    /// `faceExitTilt` with a step, and the next step tips it flat again. The screen does
    /// not move either way (it stayed at the last upright pose). 0 turns it off.
    public var walkingReturnTime: Double = 0.5

    public init() {}

    /// A problem with a parameter value, naming the parameter.
    public struct InvalidParameter: Error, Hashable, Sendable, CustomStringConvertible {
        public var name: String
        public var message: String
        public var description: String { "\(name): \(message)" }
    }

    /// Checks that the values make sense together.
    public func validate() throws(InvalidParameter) {
        for parameter in ClassifierParameter.all {
            if let problem = parameter.problem(with: parameter.value(in: self)) {
                throw InvalidParameter(name: parameter.name, message: problem)
            }
        }
        guard gravity.isFinite, gravity > 0 else { throw InvalidParameter(name: "gravity", message: "must be > 0") }
        guard faceExitTilt <= faceEnterTilt else {
            throw InvalidParameter(
                name: "face-exit-tilt", message: "must not exceed face-enter-tilt (\(faceEnterTilt)), got \(faceExitTilt)")
        }
    }
}
