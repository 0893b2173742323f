/// One request on the control channel (standard input or the socket), one per line:
///
///     orientation            the current screen orientation (Capacitor's orientation())
///     status                 everything: pose, screen, lock, supported set, sensor, clients
///     lock <words>           allow only these orientations (W3C / iOS / orientd words)
///     lock current           lock the screen where it is (a desktop's rotation-lock toggle)
///     unlock                 back to the supported set; the pose is re-evaluated at once
///     supported <words>      replace the supported set (what unlock returns to)
///     monitor                subscribe: the current state, then every event
///     help                   the list of commands
///     quit                   close this connection
///
/// Words are case-insensitive; blank lines and lines starting with `#` are ignored, so a
/// file of commands can carry comments.
public enum ControlCommand: Hashable, Sendable {
    case orientation
    case status
    case lock(RotationSet, words: String)
    case lockCurrent
    case unlock
    case supported(RotationSet, words: String)
    case monitor
    case help
    case quit

    /// The command's name, as replies carry it in `"reply"`.
    public var name: String {
        switch self {
        case .orientation: "orientation"
        case .status: "status"
        case .lock, .lockCurrent: "lock"
        case .unlock: "unlock"
        case .supported: "supported"
        case .monitor: "monitor"
        case .help: "help"
        case .quit: "quit"
        }
    }

    /// A request that cannot be carried out, with the message the client gets.
    public struct Rejection: Error, Hashable, Sendable, CustomStringConvertible {
        /// The command it was meant to be, when that much is clear; "error" otherwise.
        public var command: String
        public var message: String
        public var description: String { message }

        public init(command: String, message: String) {
            self.command = command
            self.message = message
        }
    }

    /// One line for `help` and for the reply to an unknown command.
    public static let summary =
        "commands: orientation, status, lock <orientations>, lock current, unlock, supported <orientations>, monitor, help, quit"

    /// Reads one line (without its newline). Returns nil for a blank line or a comment.
    public static func parse(_ line: some StringProtocol, natural: NaturalOrientation) throws(Rejection) -> ControlCommand? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.first == "#" { return nil }
        if trimmed.first == "{" {
            throw Rejection(
                command: "error",
                message: "requests are words, not JSON: for example 'lock landscape' (\(summary))")
        }
        let name = trimmed.prefix { $0 != " " && $0 != "\t" }.lowercased()
        let argument = String(trimmed.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }.trimmingTrailingBlanks)

        func noArgument(_ command: ControlCommand) throws(Rejection) -> ControlCommand {
            guard argument.isEmpty else {
                throw Rejection(command: name, message: "\(name): takes no argument, got '\(argument)'")
            }
            return command
        }
        func orientations() throws(Rejection) -> RotationSet {
            do {
                return try OrientationWords.parse(argument, natural: natural)
            } catch {
                throw Rejection(command: name, message: "\(name): \(error.message)")
            }
        }

        switch name {
        case "orientation": return try noArgument(.orientation)
        case "status": return try noArgument(.status)
        case "unlock": return try noArgument(.unlock)
        case "monitor", "subscribe": return try noArgument(.monitor)
        case "help": return try noArgument(.help)
        case "quit", "exit", "bye": return try noArgument(.quit)
        case "lock":
            if argument.lowercased() == "current" { return .lockCurrent }
            return .lock(try orientations(), words: argument)
        case "supported":
            return .supported(try orientations(), words: argument)
        default:
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            throw Rejection(command: "error", message: "unknown command '\(shown)'; \(summary)")
        }
    }
}
