import ArgumentParser
import OrientdCore

/// The classifier's parameters; docs/classifier.md, "Parameters", says what each does and
/// where its default came from.
struct ClassifierOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Time constant of the first low-pass over every reading, which averages out vibration; 0 turns it off \(Self.default(\.vibrationFilter)).",
            discussion: "Example: --vibration-filter 0.08 for a tablet on a rough engine mount.", valueName: "seconds"))
    var vibrationFilter: Double?
    @Option(
        help: ArgumentHelp(
            "Readings further than this from g (m/s²) are not gravity and are left out \(Self.default(\.magnitudeTolerance)).",
            discussion: "Example: --magnitude-tolerance 4 accepts harder walking steps.", valueName: "m/s²"))
    var magnitudeTolerance: Double?
    @Option(
        help: ArgumentHelp(
            "Time constant of the low-pass filter \(Self.default(\.filterTimeConstant)).",
            discussion: "Example: --filter-time-constant 0.1 smooths more and answers later.",
            valueName: "seconds"))
    var filterTimeConstant: Double?
    @Option(
        help: ArgumentHelp(
            "A reading this far from the filtered vector means the device is swung or shaken \(Self.default(\.disturbanceThreshold)).",
            discussion: "Example: --disturbance-threshold 2.5 waits out gentler swings.", valueName: "m/s²"))
    var disturbanceThreshold: Double?
    @Option(
        help: ArgumentHelp(
            "No change until this long after the last disturbance \(Self.default(\.settleTime)).",
            discussion: "Example: --settle-time 0.2 waits longer after a jolt.",
            valueName: "seconds"))
    var settleTime: Double?
    @Option(
        help: ArgumentHelp(
            "A new pose must hold this long before it is reported \(Self.default(\.holdTime)).",
            discussion: "Example: --hold-time 0.2 for a calmer, slower screen.",
            valueName: "seconds"))
    var holdTime: Double?
    @Option(
        help: ArgumentHelp(
            "Hold for the first pose after start \(Self.default(\.initialHoldTime)).", discussion: "Example: --initial-hold-time 0.1.",
            valueName: "seconds"))
    var initialHoldTime: Double?
    @Option(
        help: ArgumentHelp(
            "A new pose needs at least this many agreeing readings (default: \(ClassifierParameters().minimumSamples)).",
            discussion: "Example: --minimum-samples 3 for a noisy sensor.",
            valueName: "count"))
    var minimumSamples: Int?
    @Option(
        help: ArgumentHelp(
            "Dead band around each 45° diagonal, each side \(Self.default(\.rotationHysteresis)).",
            discussion: "With 25 the screen turns only 70° away from the old axis. Example: --rotation-hysteresis 25", valueName: "degrees")
    )
    var rotationHysteresis: Double?
    @Option(
        help: ArgumentHelp(
            "Margin for the first upright pose \(Self.default(\.initialMargin)).", discussion: "Example: --initial-margin 10.",
            valueName: "degrees"))
    var initialMargin: Double?
    @Option(
        help: ArgumentHelp(
            "Tilt at which the device becomes face-up or face-down \(Self.default(\.faceEnterTilt)).",
            discussion: "Example: --face-enter-tilt 80 for a device read almost flat.", valueName: "degrees"))
    var faceEnterTilt: Double?
    @Option(
        help: ArgumentHelp(
            "Tilt below which it may become upright again; no upright change above it \(Self.default(\.faceExitTilt)).",
            discussion: "Example: --face-exit-tilt 60.",
            valueName: "degrees"))
    var faceExitTilt: Double?
    @Option(
        help: ArgumentHelp(
            "From upright, face-up or face-down short of --face-sure-tilt (or at any tilt while walking) must hold this long; 0 turns it off \(Self.default(\.faceHoldTime)).",
            discussion: "Example: --face-hold-time 0.4 for a calmer walking hand.",
            valueName: "seconds"))
    var faceHoldTime: Double?
    @Option(
        help: ArgumentHelp(
            "Tilt from which face-up or face-down needs only --hold-time \(Self.default(\.faceSureTilt)).",
            discussion: "Example: --face-sure-tilt 90 to hold every tilt for --face-hold-time.",
            valueName: "degrees"))
    var faceSureTilt: Double?
    @Option(
        help: ArgumentHelp(
            "A gap between readings longer than this restarts the filter \(Self.default(\.gapReset)).",
            discussion: "Example: --gap-reset 3 for a sensor that pauses.",
            valueName: "seconds"))
    var gapReset: Double?
    @Option(
        help: ArgumentHelp(
            "From face-up or face-down, an upright pose other than the last one waits until the device has neither lain flat nor been jolted for this long, and while walking must hold this long; 0 turns it off \(Self.default(\.flatSettleTime)).",
            discussion: "Example: --flat-settle-time 0.4 for a slower hand.",
            valueName: "seconds"))
    var flatSettleTime: Double?
    @Option(
        help: ArgumentHelp(
            "While walking, the way back from face-up or face-down to the last upright pose must hold this long; 0 turns it off \(Self.default(\.walkingReturnTime)).",
            discussion: "Example: --walking-return-time 0.8 for a heavier step.",
            valueName: "seconds"))
    var walkingReturnTime: Double?
    @OptionGroup var reading: AdaptiveRateOptions

    /// "(default: 0.12)": the help shows ClassifierParameters' own default, so it cannot
    /// go out of step with it.
    static func `default`(_ parameter: KeyPath<ClassifierParameters, Double>) -> String {
        "(default: \(JSONLineWriter.number(ClassifierParameters()[keyPath: parameter], decimals: 3)))"
    }

    var parameters: ClassifierParameters {
        var p = ClassifierParameters()
        if let vibrationFilter { p.vibrationFilter = vibrationFilter }
        if let magnitudeTolerance { p.magnitudeTolerance = magnitudeTolerance }
        if let filterTimeConstant { p.filterTimeConstant = filterTimeConstant }
        if let disturbanceThreshold { p.disturbanceThreshold = disturbanceThreshold }
        if let settleTime { p.settleTime = settleTime }
        if let holdTime { p.holdTime = holdTime }
        if let initialHoldTime { p.initialHoldTime = initialHoldTime }
        if let minimumSamples { p.minimumSamples = minimumSamples }
        if let rotationHysteresis { p.rotationHysteresis = rotationHysteresis }
        if let initialMargin { p.initialMargin = initialMargin }
        if let faceEnterTilt { p.faceEnterTilt = faceEnterTilt }
        if let faceExitTilt { p.faceExitTilt = faceExitTilt }
        if let faceHoldTime { p.faceHoldTime = faceHoldTime }
        if let faceSureTilt { p.faceSureTilt = faceSureTilt }
        if let gapReset { p.gapReset = gapReset }
        if let flatSettleTime { p.flatSettleTime = flatSettleTime }
        if let walkingReturnTime { p.walkingReturnTime = walkingReturnTime }
        return p
    }

    /// Which samples the classifier sees: checked against its parameters.
    var adaptiveRate: AdaptiveRateParameters { reading.parameters }

    func validate() throws {
        do {
            try parameters.validate()
            if adaptiveRate.enabled { try adaptiveRate.validate(against: parameters) }
        } catch {
            throw ValidationError("--\(error.name): \(error.message)")
        }
    }
}
