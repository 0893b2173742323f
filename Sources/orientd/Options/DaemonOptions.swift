import ArgumentParser
import Glibc
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdIO

/// The control channel, hooks and saved state, shared by `run` and `replay`.
struct DaemonOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also take commands and subscribers on this Unix socket.",
            discussion: """
                Under systemd (RUNTIME_DIRECTORY set) the default is \
                $RUNTIME_DIRECTORY/control.sock, i.e. \(ControlSocket.systemPath) with the \
                shipped unit. 'orientd ctl' and 'orientd monitor' talk to it. \
                Example: --socket /tmp/orientd.sock
                """,
            valueName: "path"))
    var socket: String?

    @Flag(help: ArgumentHelp("Do not listen on a socket, not even the systemd default."))
    var noSocket = false

    @Option(
        help: ArgumentHelp(
            "The group that may use the socket (default: the daemon's own group).",
            discussion: "Example: --socket-group video", valueName: "group"))
    var socketGroup: String?

    @Option(
        help: ArgumentHelp(
            "The socket's permissions, in octal.",
            discussion: "Owner and group only by default; 600 keeps it to the owner. Example: --socket-mode 600",
            valueName: "mode"))
    var socketMode: String = "660"

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp(
            "Run this command on every screen orientation change (repeatable).",
            discussion: """
                Run without a shell: the command gets the new and the previous W3C type as \
                arguments and the event in ORIENTD_* variables (docs/hooks.md, "Hooks"). Exit \
                status 0 means changed, 100 nothing to do, anything else failed. \
                Example: --exec orientd-rotate-sway --exec 'notify-send rotated'
                """,
            valueName: "command"))
    var hooks: [String] = []

    @Option(
        help: ArgumentHelp(
            "Kill a hook still running after this many seconds.",
            discussion: "Example: --exec-timeout 3", valueName: "seconds"))
    var execTimeout: Double = 10

    @Flag(help: ArgumentHelp("Do not read commands from standard input."))
    var noCommands = false

    func validate() throws {
        _ = try parsedHooks()
        guard execTimeout.isFinite, execTimeout > 0 else {
            throw ValidationError("--exec-timeout must be a number of seconds > 0, got \(execTimeout)")
        }
        guard let mode = mode_t(socketMode, radix: 8), mode <= 0o777 else {
            throw ValidationError("--socket-mode must be an octal mode like 660, got '\(socketMode)'")
        }
        _ = mode
        if let socketGroup, UnixSocket.groupID(socketGroup) == nil {
            throw ValidationError("--socket-group: no group '\(socketGroup)' on this system")
        }
        if socket != nil && noSocket { throw ValidationError("--socket and --no-socket contradict each other") }
    }

    func parsedHooks() throws -> [HookCommand] {
        try hooks.map { text in
            do {
                return try HookCommand(parsing: text)
            } catch {
                throw ValidationError("--exec: \(error)")
            }
        }
    }

    /// The socket to listen on: the flag, else systemd's runtime directory, else none.
    var socketPath: String? {
        if noSocket { return nil }
        if let socket { return socket }
        return ControlSocket.serviceDefault
    }

    func configuration(live: Bool, stateDirectory: String?) throws -> Daemon.Configuration {
        var configuration = Daemon.Configuration(live: live)
        configuration.socketPath = socketPath
        configuration.socketMode = mode_t(socketMode, radix: 8) ?? 0o660
        configuration.socketGroup = socketGroup.flatMap(UnixSocket.groupID)
        configuration.hooks = try parsedHooks()
        configuration.hookTimeout = execTimeout
        configuration.commandsFromStandardInput = !noCommands
        configuration.stateFile = stateDirectory.map(StateFile.init(directory:))
        return configuration
    }
}
