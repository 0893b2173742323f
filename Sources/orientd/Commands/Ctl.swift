import ArgumentParser
import OrientdCore
import OrientdDaemon
import OrientdIO
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
            supported <orientations>, monitor, help.

            Examples:
              orientd ctl lock landscape
              orientd ctl lock current
              orientd ctl unlock
              orientd ctl orientation | jq -r .type
              orientd ctl --socket /tmp/orientd.sock monitor
            """
    )

    @Option(help: ArgumentHelp("The daemon's socket.", discussion: "Example: --socket /tmp/orientd.sock", valueName: "path"))
    var socket: String?

    @Argument(help: ArgumentHelp("The command and its words.", valueName: "command"))
    var words: [String]

    func validate() throws {
        if words.isEmpty { throw ValidationError("a command must be given: \(ControlCommand.summary)") }
    }

    func run() throws {
        let request = words.joined(separator: " ")
        let client = try ControlConnection.open(socket)
        if ControlConnection.isMonitor(request) {
            try ControlConnection.monitor(client)
            return
        }
        do {
            try client.send(request)
            guard let line = try client.readLine(timeout: 10) else {
                throw ControlConnection.failure("\(client.path): the daemon closed the connection without a reply")
            }
            try EventOutput().write(line)
            guard ReplyStatus(line: line)?.ok == true else { throw ExitCode(ExitStatus.failure) }
        } catch let error as Errno {
            throw ControlConnection.failure("\(client.path): \(error)")
        }
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a running orientd's events as they happen (like monitor-sensor).",
        discussion: """
            Subscribes on the daemon's control socket and prints the current state, then \
            every event, one JSON line each, until the daemon stops. Pipe it into a \
            rotation script.

            Examples:
              orientd monitor
              orientd monitor | orientd-rotate-sway
              orientd monitor --socket /tmp/orientd.sock | jq -r 'select(.event=="orientation") | .screen'
            """
    )

    @Option(help: ArgumentHelp("The daemon's socket.", discussion: "Example: --socket /tmp/orientd.sock", valueName: "path"))
    var socket: String?

    func run() throws {
        try ControlConnection.monitor(try ControlConnection.open(socket))
    }
}

/// What `ctl` and `monitor` share.
enum ControlConnection {
    static func open(_ socket: String?) throws -> ControlClient {
        let path = socket ?? ControlSocket.clientDefault
        do {
            return try ControlClient(path: path)
        } catch {
            if error.nobodyListening {
                throw failure(
                    "\(error); is orientd running with a socket? (systemctl status orientd, or orientd run --socket \(path))",
                    status: .unavailable)
            }
            throw failure(error.description, status: .unavailable)
        }
    }

    static func isMonitor(_ request: String) -> Bool {
        ["monitor", "subscribe"].contains(String(request.lowercased().trimmingBlanks))
    }

    /// Subscribes and copies every event to standard output; the daemon's reply to
    /// `monitor` itself is not printed, so the output is the event stream alone.
    static func monitor(_ client: ControlClient) throws {
        EventOutput.ignoreBrokenPipeSignal()
        let output = EventOutput()
        do {
            try client.send("monitor")
            guard let reply = try client.readLine(timeout: 10) else { throw failure("\(client.path): closed without a reply") }
            guard ReplyStatus(line: reply)?.ok == true else {
                try output.write(reply)
                throw ExitCode(ExitStatus.failure)
            }
            while let line = try client.readLine() {
                try output.write(line)
            }
            Diagnostics().note("the daemon closed the connection")
        } catch is EventOutput.ConsumerGone {
            return
        } catch let error as Errno {
            throw failure("\(client.path): \(error)")
        }
    }

    static func failure(_ message: String, status: ExitStatus = .unavailable) -> ExitCode {
        Diagnostics().error(message)
        return ExitCode(status)
    }
}
