extension ClassifierParameter {
    public static let vibrationFilter = ClassifierParameter(
        "vibration-filter", .seconds,
        "Time constant of the first low-pass over every reading, which averages out vibration; 0 turns it off.",
        example: "--vibration-filter 0.08 for a tablet on a rough engine mount.", sweep: [0, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08],
        naive: 0, read: { $0.vibrationFilter }, write: { $0.vibrationFilter = $1 })
    public static let magnitudeTolerance = ClassifierParameter(
        "magnitude-tolerance", .acceleration, "Readings further than this from g are not gravity and are left out.",
        example: "--magnitude-tolerance 4 accepts harder walking steps.", sweep: [1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6],
        naive: 1000, read: { $0.magnitudeTolerance }, write: { $0.magnitudeTolerance = $1 })
    public static let filterTimeConstant = ClassifierParameter(
        "filter-time-constant", .seconds, "Time constant of the low-pass filter.",
        example: "--filter-time-constant 0.1 smooths more and answers later.",
        sweep: [0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2], naive: 0,
        read: { $0.filterTimeConstant }, write: { $0.filterTimeConstant = $1 })
    public static let disturbanceThreshold = ClassifierParameter(
        "disturbance-threshold", .acceleration, "A reading this far from the filtered vector means the device is swung or shaken.",
        example: "--disturbance-threshold 2.5 waits out gentler swings.", sweep: [1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8], naive: 1000,
        read: { $0.disturbanceThreshold }, write: { $0.disturbanceThreshold = $1 })
    public static let settleTime = ClassifierParameter(
        "settle-time", .seconds, "No change until this long after the last disturbance.",
        example: "--settle-time 0.2 waits longer after a jolt.", sweep: [0, 0.05, 0.1, 0.15, 0.2, 0.3], naive: 0,
        read: { $0.settleTime }, write: { $0.settleTime = $1 })
    public static let holdTime = ClassifierParameter(
        "hold-time", .seconds, "A new pose must hold this long before it is reported.",
        example: "--hold-time 0.2 for a calmer, slower screen.", sweep: [0, 0.04, 0.08, 0.12, 0.16, 0.2, 0.25, 0.3], naive: 0,
        read: { $0.holdTime }, write: { $0.holdTime = $1 })
    public static let initialHoldTime = ClassifierParameter(
        "initial-hold-time", .seconds, "Hold for the first pose after start.", example: "--initial-hold-time 0.1.", naive: 0,
        read: { $0.initialHoldTime }, write: { $0.initialHoldTime = $1 })
    public static let minimumSamples = ClassifierParameter(
        "minimum-samples", .count, bound: .wholeFrom(1), "A new pose needs at least this many agreeing readings.",
        example: "--minimum-samples 3 for a noisy sensor.", sweep: [1, 2, 3, 4], naive: 1,
        read: { Double($0.minimumSamples) }, write: { $0.minimumSamples = Int($1) })
    public static let rotationHysteresis = ClassifierParameter(
        "rotation-hysteresis", .degrees, bound: .below(45), "Dead band around each 45° diagonal, each side.",
        example: "With 25 the screen turns only 70° away from the old axis. Example: --rotation-hysteresis 25",
        sweep: [0, 5, 10, 15, 20, 25, 30], naive: 0, read: { $0.rotationHysteresis }, write: { $0.rotationHysteresis = $1 })
    public static let initialMargin = ClassifierParameter(
        "initial-margin", .degrees, bound: .below(45), "Margin for the first upright pose.", example: "--initial-margin 10.",
        naive: 0, read: { $0.initialMargin }, write: { $0.initialMargin = $1 })
    public static let faceEnterTilt = ClassifierParameter(
        "face-enter-tilt", .degrees, bound: .atMost(90), "Tilt at which the device becomes face-up or face-down.",
        example: "--face-enter-tilt 80 for a device read almost flat.", sweep: [65, 70, 75, 76, 78, 80, 85], naive: 60,
        read: { $0.faceEnterTilt }, write: { $0.faceEnterTilt = $1 })
    public static let faceExitTilt = ClassifierParameter(
        "face-exit-tilt", .degrees, bound: .atMost(90), "Tilt below which it may become upright again; no upright change above it.",
        example: "--face-exit-tilt 60.", sweep: [45, 50, 55, 60, 65, 70], naive: 60,
        read: { $0.faceExitTilt }, write: { $0.faceExitTilt = $1 })
    public static let faceHoldTime = ClassifierParameter(
        "face-hold-time", .seconds,
        "From upright, face-up or face-down short of --face-sure-tilt (or at any tilt while walking) must hold this long; 0 turns it off.",
        example: "--face-hold-time 0.4 for a calmer walking hand.", sweep: [0, 0.2, 0.3, 0.4, 0.5], naive: 0,
        read: { $0.faceHoldTime }, write: { $0.faceHoldTime = $1 })
    public static let faceSureTilt = ClassifierParameter(
        "face-sure-tilt", .degrees, bound: .atMost(90), "Tilt from which face-up or face-down needs only --hold-time.",
        example: "--face-sure-tilt 90 to hold every tilt for --face-hold-time.", sweep: [82, 84, 86, 88, 90], naive: nil,
        read: { $0.faceSureTilt }, write: { $0.faceSureTilt = $1 })
    public static let gapReset = ClassifierParameter(
        "gap-reset", .seconds, bound: .positive, "A gap between readings longer than this restarts the filter.",
        example: "--gap-reset 3 for a sensor that pauses.", naive: nil, read: { $0.gapReset }, write: { $0.gapReset = $1 })
    public static let flatSettleTime = ClassifierParameter(
        "flat-settle-time", .seconds,
        "From face-up or face-down, an upright pose other than the last one waits until the device has neither lain flat nor been jolted for this long, and while walking must hold this long; 0 turns it off.",
        example: "--flat-settle-time 0.4 for a slower hand.", sweep: [0, 0.2, 0.3, 0.35, 0.4, 0.5], naive: 0,
        read: { $0.flatSettleTime }, write: { $0.flatSettleTime = $1 })
    public static let walkingReturnTime = ClassifierParameter(
        "walking-return-time", .seconds,
        "While walking, the way back from face-up or face-down to the last upright pose must hold this long; 0 turns it off.",
        example: "--walking-return-time 0.8 for a heavier step.", sweep: [0, 0.3, 0.4, 0.5, 0.8], naive: 0,
        read: { $0.walkingReturnTime }, write: { $0.walkingReturnTime = $1 })

    /// Every parameter a user can set, in the order the help and the sweep show them.
    public static let all: [ClassifierParameter] = [
        vibrationFilter, magnitudeTolerance, filterTimeConstant, disturbanceThreshold, settleTime, holdTime, initialHoldTime,
        minimumSamples, rotationHysteresis, initialMargin, faceEnterTilt, faceExitTilt, faceHoldTime, faceSureTilt, gapReset,
        flatSettleTime, walkingReturnTime,
    ]

    /// The parameter of this name, if any.
    public static func named(_ name: String) -> ClassifierParameter? { all.first { $0.name == name } }
}
