import OrientdCore

extension Daemon {
    /// Why the daemon could not be set up, and the exit status it means.
    public struct DaemonError: Error, CustomStringConvertible {
        public var status: ExitStatus
        public var message: String
        public var description: String { message }
    }
}
