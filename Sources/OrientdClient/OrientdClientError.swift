import OrientdIO
import SystemPackage

/// Why a call to the daemon did not succeed, as a program can act on it: start the
/// daemon, join its group, or show the daemon's own words to the user.
public enum OrientdClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nobody listens on the socket (no such file, or connection refused): orientd is
    /// not running, or runs without a socket.
    case noDaemon(socket: String)
    /// The socket exists but this user may not connect: the socket's group
    /// (`socket-group` in orientd.conf, `orientd` under the shipped unit) is missing.
    case permissionDenied(socket: String)
    /// The daemon answered and said no; `message` is its reason.
    case refused(command: String, message: String)
    /// The daemon closed the connection before it answered (it stopped or restarted).
    case connectionLost(socket: String)
    /// No answer within the time allowed; the connection is closed, since a late answer
    /// would be taken for the next request's.
    case noReply(socket: String, command: String, seconds: Double)
    /// An answer that is not orientd's protocol (another program on the socket?).
    case invalidReply(socket: String, line: String)
    /// Any other system failure, in the system's words.
    case failed(socket: String, message: String)
    /// The client was closed.
    case closed

    public var description: String {
        switch self {
        case .noDaemon(let socket):
            "nobody answers on \(socket): is orientd running with a socket? (systemctl status orientd, or orientd run --socket \(socket))"
        case .permissionDenied(let socket):
            "permission denied on \(socket): join the socket's group (under the shipped unit: usermod -aG orientd $USER, then log in again)"
        case .refused(let command, let message): "orientd refused \(command): \(message)"
        case .connectionLost(let socket): "\(socket): the daemon closed the connection"
        case .noReply(let socket, let command, let seconds): "\(socket): no reply to \(command) within \(seconds) s"
        case .invalidReply(let socket, let line): "\(socket): not an orientd reply: \(line)"
        case .failed(let socket, let message): "\(socket): \(message)"
        case .closed: "the client was closed"
        }
    }

    /// The error for a socket that could not be connected to.
    init(connecting socket: String, _ failure: UnixSocket.Failure) {
        switch failure.code {
        case .noSuchFileOrDirectory?, .connectionRefused?: self = .noDaemon(socket: socket)
        case .permissionDenied?, .notPermitted?: self = .permissionDenied(socket: socket)
        default: self = .failed(socket: socket, message: failure.description)
        }
    }

    /// The error for a system call on a connected socket.
    public init(on socket: String, _ error: Errno) {
        switch error {
        case .connectionReset, .brokenPipe: self = .connectionLost(socket: socket)
        default: self = .failed(socket: socket, message: error.description)
        }
    }
}
