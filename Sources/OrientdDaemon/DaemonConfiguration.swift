import Glibc
import OrientdCore

extension Daemon {
    /// What the daemon serves and how: fixed for the run, except what a reload changes.
    public struct Configuration {
        /// Listen on this Unix socket; nil for none.
        public var socketPath: String?
        public var socketMode: mode_t = 0o660
        public var socketGroup: gid_t?
        /// Read commands from standard input.
        public var commandsFromStandardInput = true
        public var hooks: [HookCommand] = []
        public var hookTimeout = 10.0
        /// Persist the lock here; nil to keep it in memory only (replay).
        public var stateFile: StateFile?
        /// How standard output treats a reader that falls behind.
        var standardOutputPolicy: Endpoint.OverflowPolicy
        /// More clients than this are turned away with an error line.
        public var maximumClients = 1024
        /// Reads the configuration again (SIGHUP); nil when there is nothing to reload.
        public var reload: (() -> ReloadResult)?

        /// Once the first orientation is out, give back what only the start needed
        /// (`ProcessSetup.returnStartMemory`): `run` lasts; a replay ends soon, and would
        /// read the dropped pages from disk again.
        let returnsStartMemory: Bool

        /// `run`: standard output drops and resynchronises a reader that falls behind.
        /// `replay`: the replay waits for the reader (Endpoint.OverflowPolicy.backpressure).
        public init(live: Bool) {
            standardOutputPolicy = live ? .resync : .backpressure
            returnsStartMemory = live
        }
    }
}
