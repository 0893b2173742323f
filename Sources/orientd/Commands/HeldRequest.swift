import ArgumentParser
import Glibc
import OrientdClient
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
        _ = try wait(signals: signals, child: nil)
    }

    /// Runs `command` with the request held; returns its exit status (128 + the signal
    /// that ended it, as a shell reports it).
    func run(_ command: [String]) throws -> Int32 {
        // Blocked before the child starts, so none is lost; the child's mask is reset.
        let signals = try SignalDescriptor([SIGINT, SIGQUIT, SIGTERM, SIGHUP])
        do {
            return try wait(signals: signals, child: ChildProcess(arguments: command, environment: [], role: .foreground))
        } catch let error as Errno {
            // 127 and 126 as a shell says "not found" and "cannot run".
            Diagnostics().error("\(command[0]): \(error)")
            throw ExitCode(error == .noSuchFileOrDirectory ? 127 : 126)
        }
    }

    /// Waits, holding the connection, for the end: the child's exit (its status), or
    /// without a child a signal (0). The daemon closing the connection ends the wait
    /// only when there is no child to wait for.
    private func wait(signals: borrowing SignalDescriptor, child: ChildProcess?) throws -> Int32 {
        var watchingDaemon = true
        while true {
            var watched = PollSet<Watched>()
            watched.watch(signals.descriptor, for: .readable, as: .signals)
            if let child { watched.watch(child.descriptor, for: .readable, as: .child) }
            if watchingDaemon { watched.watch(client.descriptor, for: .readable, as: .daemon) }
            guard let ready = try? watched.wait(timeout: nil).map(\.slot), !ready.isEmpty else { continue }
            if ready.contains(.signals) {
                let arrived = signals.read()
                guard let child else {
                    if arrived.isEmpty { continue }
                    return 0
                }
                for signal in arrived where signal == SIGTERM || signal == SIGHUP { child.kill(signal) }
            }
            if ready.contains(.child), let status = child?.reap() {
                let outcome = status.waitOutcome
                return outcome.exit ?? 128 + (outcome.signal ?? 0)
            }
            if ready.contains(.daemon), daemonLeft() {
                let message = "\(client.path): the daemon closed the connection; the request has ended"
                guard child != nil else { throw ControlConnection.failure(message) }
                Diagnostics().warning(message)
                watchingDaemon = false
            }
        }
    }

    /// What a descriptor in `wait`'s poll stands for.
    private enum Watched { case signals, child, daemon }

    /// Reads what the daemon sent; true when it closed the connection (or it failed).
    private func daemonLeft() -> Bool {
        (try? client.availableLines()) == nil
    }
}
