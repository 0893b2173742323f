import ArgumentParser
import OrientdCore
import OrientdDaemon
import OrientdIO

/// What `run` and `replay` share: the saved lock read at start, the daemon set up before
/// any thread exists, and its exit status turned into the command's.
enum DaemonLauncher {
    /// The saved lock, if the state directory has a usable one; a corrupt or unreadable
    /// file is a warning and the configured default, never a failure.
    static func savedLock(in directory: String?, commandLineLock: String?, diagnostics: Diagnostics) -> RotationSet? {
        guard let directory else { return nil }
        switch StateFile(directory: directory).load() {
        case .none:
            return nil
        case .unusable(let message):
            diagnostics.warning("\(message); starting with the configured default (it is rewritten at the next lock or unlock)")
            return nil
        case .state(let state):
            if commandLineLock != nil, state.lock != nil {
                diagnostics.note("--lock given; the saved lock is not used")
            }
            return state.lock
        }
    }

    static func run(_ daemon: () throws(Daemon.DaemonError) -> Daemon, source: some SampleSource, diagnostics: Diagnostics) throws {
        let status: ExitStatus
        do {
            status = try daemon().run(source: source)
        } catch {
            diagnostics.error(error.message)
            throw ExitCode(error.status)
        }
        if status == .unavailable { diagnostics.suggestWithoutSensor() }
        if status != .success { throw ExitCode(status) }
    }
}
