import ArgumentParser
import Glibc
import OrientdClient
import OrientdCore
import OrientdIO
import OrientdOptions
import SystemPackage

struct Ctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Lock, unlock or query a running orientd through its socket.",
        discussion: """
            Sends one command to the daemon's control socket and prints its JSON reply \
            on standard output; the exit status is 0 when the daemon did it, 1 when it \
            refused (the reason goes to standard error too), 69 when no daemon answers. \
            The socket is --socket, else $ORIENTD_SOCKET, else \(ControlSocket.systemPath).

            Commands: orientation, status, lock <orientations>, lock current, unlock, \
            supported <orientations>, request <orientations>, release, accept, \
            mode tablet|laptop|auto, monitor, help.

            A request lasts as long as the connection that made it, so 'ctl request' \
            holds it until it is interrupted (Ctrl-C, SIGTERM), or, given a command after \
            '--', while that command runs, and then exits with the command's status.

            Examples:
              orientd ctl lock landscape
              orientd ctl lock current
              orientd ctl unlock
              orientd ctl orientation | jq -r .type
              orientd ctl --socket /tmp/orientd.sock monitor
              orientd ctl request landscape -- mpv film.mkv
              orientd ctl mode tablet
            """
    )

    @Option(help: ArgumentHelp("The daemon's socket.", discussion: "Example: --socket /tmp/orientd.sock", valueName: "path"))
    var socket: String?

    @Argument(
        help: ArgumentHelp(
            "The command and its words; with request, then '--' and a program to run while the request holds.",
            valueName: "command"))
    var words: [String]

    /// What follows `--`: the parser puts it at the end of `words` and drops the `--`
    /// (a second argument array after `words` is refused, and capturing everything raw
    /// would stop options such as --socket and --help being read after the command), so
    /// it is taken back from there by counting what follows `--` on the command line.
    private var program: [String] = []

    private var isRequest: Bool { words.first?.lowercased() == "request" }

    mutating func validate() throws {
        if let terminator = CommandLine.arguments.firstIndex(of: "--") {
            let count = min(CommandLine.arguments.count - terminator - 1, words.count)
            program = Array(words.suffix(count))
            words.removeLast(count)
        }
        if words.isEmpty { throw ValidationError("a command must be given: \(ControlCommand.summary)") }
        if !program.isEmpty && !isRequest {
            throw ValidationError("a program after '--' runs only with request (orientd ctl request landscape -- mpv film.mkv)")
        }
    }

    func run() throws {
        let request = words.joined(separator: " ")
        let client = try ControlConnection.open(socket)
        if ControlConnection.isMonitor(request) {
            try ControlConnection.monitor(client).finish()
            return
        }
        do {
            try client.send(request)
            guard let line = try client.readLine(timeout: 10) else {
                throw ControlConnection.failure(OrientdClientError.connectionLost(socket: client.path).description)
            }
            try EventOutput().write(line)
            guard ControlLine(line: line)?.isSuccess == true else { throw ExitCode(ExitStatus.failure) }
            guard isRequest else { return }
            let held = HeldRequest(client: client)
            if program.isEmpty {
                try held.holdUntilInterrupted()
            } else {
                let status = try held.run(program)
                if status != 0 { throw ExitCode(status) }
            }
        } catch let error as Errno {
            let failure =
                error == .timedOut
                ? OrientdClientError.noReply(socket: client.path, command: request, seconds: 10)
                : OrientdClientError(on: client.path, error)
            throw ControlConnection.failure(failure.description)
        }
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a running orientd's events as they happen (like monitor-sensor).",
        discussion: """
            Subscribes on the daemon's control socket and prints the current state, then \
            every event, one JSON line each. Pipe it into a rotation script. When the \
            daemon stops or restarts, it says so on standard error and connects again \
            (after 0.1 s, doubling up to every 2 s); the new daemon's current state comes \
            first. With --once it ends instead when the daemon closes the connection. No \
            daemon at the start is an error (exit status 69).

            Examples:
              orientd monitor
              orientd monitor | orientd-rotate-sway
              orientd monitor | jq -r 'select(.event=="orientation") | .screen'
            """
    )

    @Option(help: ArgumentHelp("The daemon's socket.", discussion: "Example: --socket /tmp/orientd.sock", valueName: "path"))
    var socket: String?

    @Flag(help: "End when the daemon closes the connection, instead of waiting for it to come back.")
    var once = false

    func run() throws {
        let path = socket ?? ControlSocket.clientDefault
        var client = try ControlConnection.open(path)
        while true {
            let end = try ControlConnection.monitor(client)
            guard !once, end != .consumerGone else { return try end.finish() }
            Diagnostics().note("\(end.reason); connecting again to \(path)")
            client = ControlConnection.reconnect(path)
            Diagnostics().note("connected again to \(path)")
        }
    }
}

/// What `ctl` and `monitor` share.
enum ControlConnection {
    static func open(_ socket: String?) throws -> ControlClient {
        do {
            return try ControlClient(path: socket ?? ControlSocket.clientDefault)
        } catch {
            throw failure(error.description, status: .unavailable)
        }
    }

    static func isMonitor(_ request: String) -> Bool {
        ["monitor", "subscribe"].contains(String(request.lowercased().trimmingBlanks))
    }

    /// How a subscription ended.
    enum MonitorEnd: Equatable {
        /// Whoever reads the output went away: nothing more to do.
        case consumerGone
        /// The daemon closed the connection (it stops, or restarts).
        case closed
        /// The connection failed.
        case lost(String)

        var reason: String {
            switch self {
            case .consumerGone: "the reader of the output went away"
            case .closed: "the daemon closed the connection"
            case .lost(let message): message
            }
        }

        /// Ends as `ctl monitor` and `monitor --once` do: a note when the daemon closed,
        /// an error (69) when the connection failed.
        func finish() throws {
            switch self {
            case .consumerGone: return
            case .closed: Diagnostics().note(reason)
            case .lost(let message): throw ControlConnection.failure(message)
            }
        }
    }

    /// Subscribes and copies every event to standard output; the daemon's reply to
    /// `monitor` itself is not printed, so the output is the event stream alone.
    static func monitor(_ client: ControlClient) throws -> MonitorEnd {
        EventOutput.ignoreBrokenPipeSignal()
        let output = EventOutput()
        do {
            try client.send("monitor")
            guard let reply = try client.readLine(timeout: 10) else {
                return .lost(OrientdClientError.connectionLost(socket: client.path).description)
            }
            guard ControlLine(line: reply)?.isSuccess == true else {
                try output.write(reply)
                throw ExitCode(ExitStatus.failure)
            }
            while let line = try client.readLine() {
                try output.write(line)
            }
            return .closed
        } catch is EventOutput.ConsumerGone {
            return .consumerGone
        } catch let error as Errno {
            return .lost(OrientdClientError(on: client.path, error).description)
        }
    }

    /// Connects again once a daemon answers on `path`, on the client library's schedule
    /// (`ReconnectSchedule`); a daemon that is gone for good leaves monitor waiting, as a
    /// subscriber of a service should, until it is stopped.
    static func reconnect(_ path: String) -> ControlClient {
        var schedule = ReconnectSchedule()
        while true {
            usleep(UInt32(schedule.nextDelay() * 1_000_000))
            if let client = try? ControlClient(path: path) { return client }
        }
    }

    static func failure(_ message: String, status: ExitStatus = .unavailable) -> ExitCode {
        Diagnostics().error(message)
        return ExitCode(status)
    }
}
