import ArgumentParser

/// Whether a replay plays as on a sensor that watches for motion itself at rest (a HID
/// sensor hub given a change sensitivity: docs/classifier.md, "Quiet when still"), which
/// the live daemon does on a sensor that offers one. A recording made by `orientd record`
/// on such a sensor says so in its header, and is played so without this flag.
public struct WatchingSensorOption: ParsableArguments, Sendable {
    @Flag(
        help: ArgumentHelp(
            "Play as on a sensor that offers a change sensitivity (a HID sensor hub): at rest, only samples that moved by more than --change-sensitivity on an axis since the last one read are read.",
            discussion: "Example: orientd replay --fast --watching-sensor rec.csv"))
    public var watchingSensor = false

    public init() {}
}
