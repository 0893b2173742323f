/// The words a user can write for a set of screen orientations (`--supported`, `--lock`,
/// and the control channel), in the vocabularies orientd follows (docs/layers.md, "Lock words"):
///
/// - W3C `OrientationLockType`: any, natural, portrait, landscape, portrait-primary,
///   portrait-secondary, landscape-primary, landscape-secondary;
/// - iOS interface-orientation masks: all, all-but-upside-down, portrait-upside-down,
///   landscape (also camelCase, and the numeric `UIInterfaceOrientationMask` values such
///   as 26 or 30); `portrait` is read as W3C's (both portrait types), not iOS's (one);
/// - orientd's device poses, meaning "the screen that shows this pose upright":
///   portrait, landscape-left, portrait-upside-down, landscape-right;
/// - iio-sensor-proxy's names: normal, right-up, bottom-up, left-up;
/// - angles 0, 90, 180, 270.
///
/// `landscape-left` and `landscape-right` are *device poses* (as in iOS's
/// `UIDeviceOrientation`); iOS's *interface* masks of the same name mean the opposite
/// rotation, which is why the iOS mask words accepted here stop at `landscape`.
/// Words can be combined with commas or spaces: `portrait,landscape-primary`.
public enum OrientationWords {
    /// Why some words could not be read.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Every accepted word, for help texts and completions.
    public static let vocabulary: [String] = [
        "any", "all", "natural", "portrait", "landscape", "portrait-primary", "portrait-secondary",
        "landscape-primary", "landscape-secondary", "all-but-upside-down", "portrait-upside-down",
        "landscape-left", "landscape-right", "normal", "right-up", "bottom-up", "left-up",
        "0", "90", "180", "270",
    ]

    /// The set the words name, on a panel of the given natural orientation.
    public static func parse(_ text: some StringProtocol, natural: NaturalOrientation) throws(ParseError) -> RotationSet {
        let words = text.split { $0 == "," || $0 == " " || $0 == "\t" || $0 == "|" }
        guard !words.isEmpty else {
            throw ParseError(message: "an orientation must be given (for example: portrait, landscape, all-but-upside-down)")
        }
        var set: RotationSet = []
        for word in words {
            guard let member = rotations(for: word, natural: natural) else {
                throw ParseError(
                    message: "unknown orientation '\(word)'; expected one of: \(vocabulary.joined(separator: ", "))")
            }
            set.formUnion(member)
        }
        return set
    }

    private static func rotations(for word: some StringProtocol, natural: NaturalOrientation) -> RotationSet? {
        let type: (ScreenOrientationType) -> RotationSet = { RotationSet(natural.rotation(of: $0)) }
        let normalised = normalise(word)
        if let number = Int(normalised), ![0, 90, 180, 270].contains(number) {
            return iOSMask(number)
        }
        switch normalised {
        case "any", "all": return .all
        case "natural": return [.degrees0]
        case "portrait": return type(.portraitPrimary).union(type(.portraitSecondary))
        case "landscape": return type(.landscapePrimary).union(type(.landscapeSecondary))
        case "portrait-primary": return type(.portraitPrimary)
        case "portrait-secondary": return type(.portraitSecondary)
        case "landscape-primary": return type(.landscapePrimary)
        case "landscape-secondary": return type(.landscapeSecondary)
        case "all-but-upside-down": return [.degrees0, .degrees90, .degrees270]
        case "portrait-upside-down", "upside-down", "bottom-up", "180": return [.degrees180]
        case "normal", "0": return [.degrees0]
        case "landscape-left", "right-up", "90": return [.degrees90]
        case "landscape-right", "left-up", "270": return [.degrees270]
        default: return nil
        }
    }

    /// iOS `UIInterfaceOrientationMask` bits: portrait 2, portraitUpsideDown 4,
    /// landscapeRight 8 (the device's landscape-left pose), landscapeLeft 16.
    private static func iOSMask(_ value: Int) -> RotationSet? {
        guard value > 0, value & ~30 == 0 else { return nil }
        var set: RotationSet = []
        if value & 2 != 0 { set.insert(.degrees0) }
        if value & 4 != 0 { set.insert(.degrees180) }
        if value & 8 != 0 { set.insert(.degrees90) }
        if value & 16 != 0 { set.insert(.degrees270) }
        return set
    }

    /// Lower case, camelCase and underscores turned into the kebab-case used here.
    static func normalise(_ word: some StringProtocol) -> String {
        var out = ""
        var previousWasLower = false
        for character in word {
            if character.isUppercase {
                if previousWasLower { out.append("-") }
                out.append(contentsOf: character.lowercased())
                previousWasLower = false
                continue
            }
            previousWasLower = character.isLowercase
            out.append(character == "_" ? "-" : character)
        }
        return out
    }
}
