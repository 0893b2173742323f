import ArgumentParser
import OrientdCore

/// How the pose becomes a screen orientation: the supported set, the lock, the panel.
public struct PolicyOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "The screen orientations allowed when unlocked (default: all four).",
            discussion: """
                W3C lock words (any, natural, portrait, landscape, portrait-primary, \
                portrait-secondary, landscape-primary, landscape-secondary), iOS mask words \
                (all, all-but-upside-down, portrait-upside-down, landscape, or a mask value \
                like 26), device poses (landscape-left = right edge up) or angles, joined \
                by commas. Example: --supported all-but-upside-down
                """,
            valueName: "words"))
    public var supported: String?

    @Option(
        help: ArgumentHelp(
            "Lock the screen to these orientations (same words as --supported).",
            discussion: "Example: --lock landscape. The screen moves at once if it must.",
            valueName: "words"))
    public var lock: String?

    @Option(
        help: ArgumentHelp(
            "The panel's natural orientation: portrait or landscape (default: the recording's 'natural' header, else portrait).",
            discussion:
                "Most 2-in-1s and large tablets are naturally landscape. It changes the W3C names only, not the angles. Example: --natural landscape",
            valueName: "portrait|landscape"))
    public var natural: NaturalOrientation?

    @Option(
        help: ArgumentHelp(
            "On a convertible, when the screen follows the device: tablet or always (default: tablet).",
            discussion: """
                tablet: only in tablet mode (folded back, detached, tent or stand); in laptop \
                mode the screen stays at the natural orientation unless a lock or a request \
                moves it. A machine that cannot tell its mode counts as a tablet, so plain \
                tablets need nothing. always: in every mode. Example: --rotate-in always
                """,
            valueName: "tablet|always"))
    public var rotateIn: RotateIn = .tablet

    @Option(
        help: ArgumentHelp(
            "Seconds a rotation suggested while locked stands (default: 10; 0: suggest none).",
            discussion: """
                While the lock holds the screen and the device settles in another orientation \
                the screen could take, orientd emits a suggestion event, once per pose, as \
                Android's rotate button; 'orientd ctl accept' takes it and keeps the lock, at \
                the new orientation. Example: --suggestion-timeout 5
                """,
            valueName: "seconds"))
    public var suggestionTimeout: Double = 10

    public init() {}

    /// The natural orientation: the flag, else the recording's header, else portrait.
    public func resolvedNatural(header: RecordingHeader?) throws -> NaturalOrientation {
        if let natural { return natural }
        if let text = header?[RecordingHeader.Key.natural] {
            guard let value = NaturalOrientation(rawValue: text.lowercased()) else {
                throw ValidationError("the recording's 'natural: \(text)' is neither portrait nor landscape")
            }
            return value
        }
        return .portrait
    }

    public func supportedSet(natural: NaturalOrientation) throws -> RotationSet {
        guard let supported else { return .all }
        do {
            return try OrientationWords.parse(supported, natural: natural)
        } catch {
            throw ValidationError("--supported: \(error.message)")
        }
    }

    public func lockSet(natural: NaturalOrientation) throws -> RotationSet? {
        guard let lock else { return nil }
        do {
            return try OrientationWords.parse(lock, natural: natural)
        } catch {
            throw ValidationError("--lock: \(error.message)")
        }
    }

    public func validate() throws {
        guard suggestionTimeout >= 0, suggestionTimeout.isFinite else {
            throw ValidationError("--suggestion-timeout: expected seconds, 0 or more, got \(suggestionTimeout)")
        }
        // Check the words early, with either natural orientation: the words are the same.
        _ = try supportedSet(natural: .portrait)
        _ = try lockSet(natural: .portrait)
    }
}

extension NaturalOrientation: ExpressibleByArgument {}
extension RotateIn: ExpressibleByArgument {}
