import ArgumentParser
import Glibc
import OrientdIO

/// Where `run` keeps the lock across restarts.
struct StateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep the rotation lock here across restarts.",
            discussion: """
                Default: $STATE_DIRECTORY under systemd, /var/lib/orientd for root, else \
                $XDG_STATE_HOME/orientd (~/.local/state/orientd). Example: --state-directory /tmp/orientd
                """,
            valueName: "directory"))
    var stateDirectory: String?

    @Flag(help: ArgumentHelp("Keep the lock in memory only; nothing is read or written."))
    var noState = false

    var directory: String? {
        if noState { return nil }
        if let stateDirectory { return stateDirectory }
        if let systemd = Environment.value("STATE_DIRECTORY")?.split(separator: ":").first { return String(systemd) }
        if getuid() == 0 { return "/var/lib/orientd" }
        if let xdg = Environment.value("XDG_STATE_HOME") { return "\(xdg)/orientd" }
        if let home = Environment.value("HOME") { return "\(home)/.local/state/orientd" }
        return nil
    }

    func validate() throws {
        if stateDirectory != nil && noState { throw ValidationError("--state-directory and --no-state contradict each other") }
    }
}
