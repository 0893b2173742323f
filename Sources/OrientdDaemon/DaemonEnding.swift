import OrientdCore

extension Daemon {
    /// Why the loop ends; it decides the exit status, the note said at the end, and how
    /// the running hooks are treated.
    enum Ending: Equatable {
        /// The source ended: a replay reached its end, or the source failed (already said).
        case sourceEnded(ExitStatus)
        /// SIGTERM or SIGINT: running hooks are killed and readers get only a moment.
        case signalled(String)
        /// Standard output's reader left.
        case outputClosed
        /// Writing to standard output failed (already said).
        case outputFailed

        var status: ExitStatus {
            switch self {
            case .sourceEnded(let status): status
            case .signalled, .outputClosed: .success
            case .outputFailed: .ioError
            }
        }

        /// The last note on standard error, and systemd's STATUS= while stopping.
        var note: String? {
            switch self {
            case .signalled(let name): "\(name): stopping"
            case .outputClosed: "standard output was closed by its reader; stopping"
            case .sourceEnded, .outputFailed: nil
            }
        }

        var isSignal: Bool {
            if case .signalled = self { return true }
            return false
        }
    }
}
