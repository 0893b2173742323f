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
        let status: Int32
        do {
            status = try daemon().run(source: source)
        } catch {
            diagnostics.error(error.message)
            throw ExitCode(error.status)
        }
        if status == 69 {
            diagnostics.note("to try orientd without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv")
            diagnostics.note("to wait for a sensor to appear, use: orientd run --wait")
        }
        if status != 0 { throw ExitCode(status) }
    }
}
