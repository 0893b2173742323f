/// A command given with `--exec`, split into its program and arguments.
///
/// orientd runs hooks without a shell, so nothing in an event can ever be interpreted as
/// shell code: the text is split into words the way a shell would (spaces, 'single' and
/// "double" quotes, backslash escapes) but nothing is expanded. Shell syntax that would
/// silently mean something else without a shell (pipes, redirections, `;`, `&&`, `$VAR`,
/// backquotes) is refused with a message that shows the `sh -c` form instead, where the
/// event reaches the script through the environment, never through interpolation.
public struct HookCommand: Hashable, Sendable, CustomStringConvertible {
    /// Program and arguments; never empty.
    public var arguments: [String]
    /// The text as given, for messages.
    public var text: String

    public var description: String { text }

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public init(arguments: [String]) {
        precondition(!arguments.isEmpty, "a hook needs a program")
        self.arguments = arguments
        text = arguments.joined(separator: " ")
    }

    public init(parsing text: String) throws(ParseError) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch quote {
            case "'":
                if character == "'" { quote = nil } else { word.append(character) }
                continue
            case "\"":
                switch character {
                case "\"": quote = nil
                case "\\": escaped = true
                case "$", "`":
                    throw Self.shellSyntax(character, in: text)
                default: word.append(character)
                }
                continue
            default:
                break
            }
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'", "\"":
                quote = character
                inWord = true
            case "\\":
                escaped = true
                inWord = true
            case "|", "&", ";", "<", ">", "(", ")", "$", "`", "*", "?", "[", "~":
                throw Self.shellSyntax(character, in: text)
            default:
                word.append(character)
                inWord = true
            }
        }
        if escaped { throw ParseError(message: "'\(text)': ends with a lone backslash") }
        if let quote { throw ParseError(message: "'\(text)': the quote \(quote) is not closed") }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw ParseError(message: "an empty command was given") }
        arguments = words
        self.text = text
    }

    private static func shellSyntax(_ character: Character, in text: String) -> ParseError {
        ParseError(
            message: """
                '\(text)': '\(character)' is shell syntax, and hooks run without a shell; \
                use --exec "sh -c '…'" (the program's words in single quotes) and read the event from $ORIENTD_SCREEN, $ORIENTD_XRANDR and the \
                other ORIENTD_* variables (docs/hooks.md, "Hooks")
                """)
    }
}
