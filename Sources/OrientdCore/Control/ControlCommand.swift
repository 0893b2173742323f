/// One request on the control channel (standard input or the socket), one per line:
///
///     orientation            the current screen orientation (Capacitor's orientation())
///     status                 everything: pose, screen, lock, supported set, sensor, clients
///     lock <words>           allow only these orientations (W3C / iOS / orientd words)
///     lock current           lock the screen where it is (a desktop's rotation-lock toggle)
///     unlock                 back to the supported set; the pose is re-evaluated at once
///     supported <words>      replace the supported set (what unlock returns to)
///     request <words>        ask for these orientations while this connection lasts
///     release                drop this connection's request
///     accept                 take the rotation suggested while locked; the lock stays, there
///     mode tablet|laptop|auto  tell a convertible's mode (auto: leave it to the sensors)
///     monitor                subscribe: the current state, then every event
///     help                   the list of commands
///     quit                   close this connection
///
/// Words are case-insensitive; blank lines and lines starting with `#` are ignored, so a
/// file of commands can carry comments.
///
/// A command is either about the orientation state, which `OrientationService` carries
/// out, or about the connection and the daemon, which the daemon answers; the two kinds
/// are apart so that neither has to refuse the other's.
public enum ControlCommand: Hashable, Sendable {
    case service(ServiceRequest)
    case daemon(DaemonRequest)

    /// Reads or changes the orientation state.
    public enum ServiceRequest: Hashable, Sendable {
        case orientation
        case lock(RotationSet, words: String)
        case lockCurrent
        case unlock
        case supported(RotationSet, words: String)
        case request(RotationSet, words: String)
        case release
        case accept
        /// nil: `mode auto`, the command no longer says.
        case mode(DeviceMode?)

        /// The command's name, as replies carry it in `"reply"`.
        public var name: String {
            switch self {
            case .orientation: "orientation"
            case .lock, .lockCurrent: "lock"
            case .unlock: "unlock"
            case .supported: "supported"
            case .request: "request"
            case .release: "release"
            case .accept: "accept"
            case .mode: "mode"
            }
        }
    }

    /// Concerns the connection or the daemon as a whole.
    public enum DaemonRequest: String, Hashable, Sendable {
        case status, monitor, help, quit

        /// The command's name, as replies carry it in `"reply"`.
        public var name: String { rawValue }
    }

    /// The command's name, as replies carry it in `"reply"`.
    public var name: String {
        switch self {
        case .service(let request): request.name
        case .daemon(let request): request.name
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
        "commands: orientation, status, lock <orientations>, lock current, unlock, supported <orientations>, request <orientations>, release, accept, mode tablet|laptop|auto, monitor, help, quit"

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
        case "orientation": return try noArgument(.service(.orientation))
        case "status": return try noArgument(.daemon(.status))
        case "unlock": return try noArgument(.service(.unlock))
        case "monitor", "subscribe": return try noArgument(.daemon(.monitor))
        case "help": return try noArgument(.daemon(.help))
        case "quit", "exit", "bye": return try noArgument(.daemon(.quit))
        case "lock":
            if argument.lowercased() == "current" { return .service(.lockCurrent) }
            return .service(.lock(try orientations(), words: argument))
        case "supported":
            return .service(.supported(try orientations(), words: argument))
        case "request":
            return .service(.request(try orientations(), words: argument))
        case "release": return try noArgument(.service(.release))
        case "accept": return try noArgument(.service(.accept))
        case "mode":
            switch argument.lowercased() {
            case "auto": return .service(.mode(nil))
            case let word:
                guard let mode = DeviceMode(rawValue: word) else {
                    throw Rejection(command: name, message: "mode: expected tablet, laptop or auto, got '\(argument)'")
                }
                return .service(.mode(mode))
            }
        default:
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            throw Rejection(command: "error", message: "unknown command '\(shown)'; \(summary)")
        }
    }
}
