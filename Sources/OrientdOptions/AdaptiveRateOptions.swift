import ArgumentParser
import OrientdCore

/// The adaptive rate (docs/classifier.md, "Quiet when still"): read slowly while the device is still,
/// every sample while it moves. Part of the classifier's options, as it decides which
/// samples the classifier sees, in a replay as live.
public struct AdaptiveRateOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Readings per second while the device is still (default: \(Self.default(\.restRate))).",
            discussion: "Example: --rest-rate 1 halves the wake-ups of a still device.",
            valueName: "Hz"))
    public var restRate: Double?
    @Option(
        help: ArgumentHelp(
            "A reading this far from the last one that moved is motion and brings the full rate back (default: \(Self.default(\.motionThreshold))).",
            discussion: "Example: --motion-threshold 1 for a noisy sensor that never rests.", valueName: "m/s²"))
    public var motionThreshold: Double?
    @Option(
        help: ArgumentHelp(
            "Stay at the full rate this long after the last motion (default: \(Self.default(\.restAfter))).",
            discussion: "Example: --rest-after 3.", valueName: "seconds"))
    public var restAfter: Double?
    @Option(
        help: ArgumentHelp(
            "At rest, a sensor that offers a change sensitivity (a HID sensor hub) is given this one, per axis, and sends only what moved by more (default: \(Self.default(\.changeSensitivity)); 0: not used).",
            discussion: "Example: --change-sensitivity 0 keeps such a sensor at the rest rate.", valueName: "m/s²"))
    public var changeSensitivity: Double?
    @Flag(
        help: ArgumentHelp(
            "Read every sample at --rate (a replay: every sample of the recording), never the rest rate.",
            discussion: "Example: orientd replay --fast --full-rate rec.csv"))
    public var fullRate = false

    public init() {}

    public static func `default`(_ parameter: KeyPath<AdaptiveRateParameters, Double>) -> String {
        JSONLineWriter.number(AdaptiveRateParameters()[keyPath: parameter], decimals: 3)
    }

    public var parameters: AdaptiveRateParameters {
        var p = fullRate ? AdaptiveRateParameters.off : AdaptiveRateParameters()
        if let restRate { p.restRate = restRate }
        if let motionThreshold { p.motionThreshold = motionThreshold }
        if let restAfter { p.restAfter = restAfter }
        if let changeSensitivity { p.changeSensitivity = changeSensitivity }
        return p
    }
}
