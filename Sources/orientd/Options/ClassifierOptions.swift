import ArgumentParser
import OrientdCore

/// The classifier's parameters; README "Classifier parameters" says what each does and
/// where its default came from.
struct ClassifierOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Readings further than this from g (m/s²) are not gravity and are left out.", valueName: "m/s²"))
    var magnitudeTolerance: Double?
    @Option(help: ArgumentHelp("Time constant of the low-pass filter.", valueName: "seconds"))
    var filterTimeConstant: Double?
    @Option(help: ArgumentHelp("A reading this far from the filtered vector means the device is swung or shaken.", valueName: "m/s²"))
    var disturbanceThreshold: Double?
    @Option(help: ArgumentHelp("No change until this long after the last disturbance.", valueName: "seconds"))
    var settleTime: Double?
    @Option(help: ArgumentHelp("A new pose must hold this long before it is reported.", valueName: "seconds"))
    var holdTime: Double?
    @Option(help: ArgumentHelp("Hold for the first pose after start.", valueName: "seconds"))
    var initialHoldTime: Double?
    @Option(help: ArgumentHelp("A new pose needs at least this many agreeing readings.", valueName: "count"))
    var minimumSamples: Int?
    @Option(help: ArgumentHelp("Dead band around each 45° diagonal, each side.", valueName: "degrees"))
    var rotationHysteresis: Double?
    @Option(help: ArgumentHelp("Margin for the first upright pose.", valueName: "degrees"))
    var initialMargin: Double?
    @Option(help: ArgumentHelp("Tilt at which the device becomes face-up or face-down.", valueName: "degrees"))
    var faceEnterTilt: Double?
    @Option(help: ArgumentHelp("Tilt below which it may become upright again; no upright change above it.", valueName: "degrees"))
    var faceExitTilt: Double?
    @Option(help: ArgumentHelp("A gap between readings longer than this restarts the filter.", valueName: "seconds"))
    var gapReset: Double?

    var parameters: ClassifierParameters {
        var p = ClassifierParameters()
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
        if let gapReset { p.gapReset = gapReset }
        return p
    }

    func validate() throws {
        do {
            try parameters.validate()
        } catch {
            throw ValidationError("--\(error.name): \(error.message)")
        }
    }
}
