import ArgumentParser
import OrientdCore

/// The classifier's parameters, one flag each, named and explained by its entry in
/// `ClassifierParameter.all` (docs/classifier.md, "Parameters", says where each default
/// came from).
public struct ClassifierOptions: ParsableArguments, Sendable {
    private typealias P = ClassifierParameter

    @Option(name: .customLong(P.vibrationFilter.name), help: P.vibrationFilter.help) public var vibrationFilter: Double?
    @Option(name: .customLong(P.magnitudeTolerance.name), help: P.magnitudeTolerance.help) public var magnitudeTolerance: Double?
    @Option(name: .customLong(P.filterTimeConstant.name), help: P.filterTimeConstant.help) public var filterTimeConstant: Double?
    @Option(name: .customLong(P.disturbanceThreshold.name), help: P.disturbanceThreshold.help) public var disturbanceThreshold: Double?
    @Option(name: .customLong(P.settleTime.name), help: P.settleTime.help) public var settleTime: Double?
    @Option(name: .customLong(P.holdTime.name), help: P.holdTime.help) public var holdTime: Double?
    @Option(name: .customLong(P.initialHoldTime.name), help: P.initialHoldTime.help) public var initialHoldTime: Double?
    /// A count: an Int, so that the parser itself refuses 2.5.
    @Option(name: .customLong(P.minimumSamples.name), help: P.minimumSamples.help) public var minimumSamples: Int?
    @Option(name: .customLong(P.rotationHysteresis.name), help: P.rotationHysteresis.help) public var rotationHysteresis: Double?
    @Option(name: .customLong(P.initialMargin.name), help: P.initialMargin.help) public var initialMargin: Double?
    @Option(name: .customLong(P.faceEnterTilt.name), help: P.faceEnterTilt.help) public var faceEnterTilt: Double?
    @Option(name: .customLong(P.faceExitTilt.name), help: P.faceExitTilt.help) public var faceExitTilt: Double?
    @Option(name: .customLong(P.faceHoldTime.name), help: P.faceHoldTime.help) public var faceHoldTime: Double?
    @Option(name: .customLong(P.faceSureTilt.name), help: P.faceSureTilt.help) public var faceSureTilt: Double?
    @Option(name: .customLong(P.gapReset.name), help: P.gapReset.help) public var gapReset: Double?
    @Option(name: .customLong(P.flatSettleTime.name), help: P.flatSettleTime.help) public var flatSettleTime: Double?
    @Option(name: .customLong(P.walkingReturnTime.name), help: P.walkingReturnTime.help) public var walkingReturnTime: Double?
    @OptionGroup public var reading: AdaptiveRateOptions

    public init() {}

    /// Each parameter with the value its flag was given; a test checks that every entry of
    /// `ClassifierParameter.all` is here, set by the flag of its name.
    public var given: [(ClassifierParameter, Double?)] {
        [
            (P.vibrationFilter, vibrationFilter), (P.magnitudeTolerance, magnitudeTolerance),
            (P.filterTimeConstant, filterTimeConstant), (P.disturbanceThreshold, disturbanceThreshold), (P.settleTime, settleTime),
            (P.holdTime, holdTime), (P.initialHoldTime, initialHoldTime), (P.minimumSamples, minimumSamples.map(Double.init)),
            (P.rotationHysteresis, rotationHysteresis), (P.initialMargin, initialMargin), (P.faceEnterTilt, faceEnterTilt),
            (P.faceExitTilt, faceExitTilt), (P.faceHoldTime, faceHoldTime), (P.faceSureTilt, faceSureTilt), (P.gapReset, gapReset),
            (P.flatSettleTime, flatSettleTime), (P.walkingReturnTime, walkingReturnTime),
        ]
    }

    public var parameters: ClassifierParameters {
        var p = ClassifierParameters()
        for case (let parameter, let value?) in given { parameter.set(value, in: &p) }
        return p
    }

    /// Which samples the classifier sees: checked against its parameters.
    public var adaptiveRate: AdaptiveRateParameters { reading.parameters }

    public func validate() throws {
        do {
            try parameters.validate()
            if adaptiveRate.enabled { try adaptiveRate.validate(against: parameters) }
        } catch {
            throw ValidationError("--\(error.name): \(error.message)")
        }
    }
}

extension ClassifierParameter {
    /// The flag's help: the summary with the default and unit, an example below.
    public var help: ArgumentHelp {
        let value: String
        switch unit {
        case .seconds: value = "seconds"
        case .degrees: value = "degrees"
        case .acceleration: value = "m/s²"
        case .count: value = "count"
        }
        let summary = summary.hasSuffix(".") ? String(summary.dropLast()) : summary
        let example = example.hasPrefix("--") ? "Example: \(example)" : example
        return ArgumentHelp("\(summary) (default: \(defaultText)).", discussion: example, valueName: value)
    }
}
