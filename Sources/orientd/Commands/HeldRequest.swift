import ArgumentParser
import Glibc
import OrientdCore
import OrientdDaemon
import OrientdIO
import SystemPackage

/// `ctl request …`: a request lasts as long as its connection, so `ctl` keeps the
/// connection open for as long as the request should hold: until it is interrupted, or,
/// with a command after `--`, until that command ends.
///
/// While a command runs, `ctl` behaves as system(3) does: SIGINT and SIGQUIT, which the
/// terminal sends to the command as well, do not end `ctl` before it; SIGTERM and SIGHUP,
/// sent to `ctl` alone, are passed on to the command. `ctl` then exits with the command's
/// status.
struct HeldRequest {
    let client: ControlClient

    /// Holds the request until SIGINT, SIGTERM or SIGHUP; exits 69 if the daemon goes.
    func holdUntilInterrupted() throws {
        let signals = try SignalDescriptor([SIGINT, SIGTERM, SIGHUP])
        while true {
            var fds = [
                pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) > 0 else { continue }
            if fds[0].revents != 0, !signals.read().isEmpty { return }
            if fds[1].revents != 0, daemonLeft() {
                throw ControlConnection.failure("\(client.path): the daemon closed the connection; the request has ended")
            }
        }
    }

    /// Runs `command` with the request held; returns its exit status (128 + the signal
    /// that ended it, as a shell reports it).
    func run(_ command: [String]) throws -> Int32 {
        let signals = try SignalDescriptor([SIGINT, SIGQUIT, SIGTERM, SIGHUP])
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments: command, environment: [], role: .foreground)
        } catch {
            // 127 and 126 as a shell says "not found" and "cannot run".
            Diagnostics().error("\(command[0]): \(error)")
            throw ExitCode(error == .noSuchFileOrDirectory ? 127 : 126)
        }
        var watchingDaemon = true
        while true {
            var fds = [
                pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watchingDaemon ? client.descriptor : -1, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 3, -1) > 0 else { continue }
            if fds[0].revents != 0 {
                for signal in signals.read() where signal == SIGTERM || signal == SIGHUP { child.kill(signal) }
            }
            if fds[1].revents != 0, let status = child.reap() {
                let outcome = status.waitOutcome
                return outcome.exit ?? 128 + (outcome.signal ?? 0)
            }
            if fds[2].revents != 0, daemonLeft() {
                Diagnostics().warning("\(client.path): the daemon closed the connection; the request has ended")
                watchingDaemon = false
            }
        }
    }

    /// Reads what the daemon sent; true when it closed the connection.
    private func daemonLeft() -> Bool {
        do {
            return try client.readLine(timeout: 0) == nil
        } catch {
            return error != .timedOut
        }
    }
}
