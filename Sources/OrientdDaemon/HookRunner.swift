import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// Runs the `--exec` hooks for each screen orientation change, off the classification
/// path: hooks are started and watched from the control loop and never waited for.
///
/// One batch at a time (all hooks for one change, side by side), so rotations are applied
/// in order; a change that comes while a batch runs waits, and only the latest waiting
/// change is kept, because the screen needs to reach the newest orientation, not to
/// replay every one it passed through.
final class HookRunner {
    /// Replaced by a configuration reload; a running batch finishes with the old ones.
    var commands: [HookCommand]
    var timeout: Double

    private struct Running {
        var index: Int
        var child: ChildProcess
    }

    private struct Batch {
        var commands: [HookCommand]
        var event: OrientationEvent
        var started: Double
        var running: [Running]
        var results: [HookResult?]
    }

    private var batch: Batch?
    private var waiting: OrientationEvent?

    init(commands: [HookCommand], timeout: Double) {
        self.commands = commands
        self.timeout = timeout
    }

    var isIdle: Bool { batch == nil && waiting == nil }

    /// The pidfds to poll for readability.
    var descriptors: [FileDescriptor] { batch?.running.map(\.child.descriptor) ?? [] }

    /// When the running batch times out.
    var deadline: Double? { batch.map { $0.started + timeout } }

    /// Runs the hooks for `event`, or keeps it for when the running batch ends (only the
    /// newest waits: the screen's latest state is what the hooks must apply).
    func schedule(_ event: OrientationEvent, now: Double) {
        guard !commands.isEmpty else { return }
        if batch != nil {
            waiting = event
            return
        }
        start(event, now: now)
    }

    /// Starts a batch. A hook that cannot even start gets its result at once; the batch's
    /// report comes from `poll` when the last running hook has ended.
    private func start(_ event: OrientationEvent, now: Double) {
        var next = Batch(commands: commands, event: event, started: now, running: [], results: Array(repeating: nil, count: commands.count))
        let environment = event.hookEnvironment
        for (index, command) in commands.enumerated() {
            do {
                let child = try ChildProcess(arguments: command.arguments + event.hookArguments, environment: environment)
                next.running.append(Running(index: index, child: child))
            } catch {
                next.results[index] = HookResult(command: command, ending: .notStarted(error.description), seconds: 0)
            }
        }
        batch = next
    }

    /// A finished batch: the event it was for and every hook's result.
    struct Report {
        var event: OrientationEvent
        var results: [HookResult]
    }

    /// Reaps what exited, kills what ran past the timeout; returns a finished batch and
    /// starts the waiting one.
    func poll(now: Double) -> Report? {
        guard var current = batch else { return nil }
        let timedOut = now >= current.started + timeout
        current.running.removeAll { running in
            if let status = running.child.reap() {
                let (exit, signal) = status.waitOutcome
                let ending: HookResult.Ending = exit.map { .exited($0) } ?? .signalled(signal ?? 0)
                current.results[running.index] = HookResult(
                    command: current.commands[running.index], ending: ending, seconds: now - current.started)
                return true
            }
            if timedOut {
                running.child.kill()
                current.results[running.index] = HookResult(
                    command: current.commands[running.index], ending: .timedOut(timeout), seconds: now - current.started)
                return true  // ChildProcess reaps it when released
            }
            return false
        }
        batch = current
        guard current.running.isEmpty else { return nil }
        batch = nil
        let report = Report(event: current.event, results: current.results.compactMap { $0 })
        if let next = waiting {
            waiting = nil
            start(next, now: now)
        }
        return report
    }

    /// Ends every running hook (the daemon is stopping).
    func killAll() {
        batch?.running.forEach { $0.child.kill() }
        batch = nil
        waiting = nil
    }
}
