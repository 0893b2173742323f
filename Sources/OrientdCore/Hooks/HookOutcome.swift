/// What a hook did with one screen orientation change, from its exit status:
/// 0 changed something, 100 had nothing to do, anything else (a signal, a timeout, a
/// program that would not start) failed.
///
/// Several hooks give one reported outcome, reconciled the way Expo reconciles its
/// app-delegate subscribers: failed beats changed beats unchanged.
public enum HookOutcome: String, Hashable, Sendable, Comparable {
    case unchanged
    case changed
    case failed

    /// The exit status by which a hook says it had nothing to do.
    public static let unchangedExitStatus: Int32 = 100

    public init(exitStatus: Int32) {
        switch exitStatus {
        case 0: self = .changed
        case Self.unchangedExitStatus: self = .unchanged
        default: self = .failed
        }
    }

    private var rank: Int {
        switch self {
        case .unchanged: 0
        case .changed: 1
        case .failed: 2
        }
    }

    public static func < (a: HookOutcome, b: HookOutcome) -> Bool { a.rank < b.rank }

    /// The outcome of several hooks; nil for none.
    public static func reconcile(_ outcomes: some Sequence<HookOutcome>) -> HookOutcome? {
        outcomes.max()
    }
}

/// How one run of one hook ended.
public struct HookResult: Hashable, Sendable {
    public enum Ending: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed after running past the timeout (seconds).
        case timedOut(Double)
        /// The program could not be started (errno text).
        case notStarted(String)
    }

    public var command: HookCommand
    public var ending: Ending
    /// Wall time from start to end.
    public var seconds: Double

    public init(command: HookCommand, ending: Ending, seconds: Double) {
        self.command = command
        self.ending = ending
        self.seconds = seconds
    }

    public var outcome: HookOutcome {
        if case .exited(let status) = ending { return HookOutcome(exitStatus: status) }
        return .failed
    }

    /// Why it failed, for the event and stderr; nil when it did not fail.
    public var failure: String? {
        guard outcome == .failed else { return nil }
        switch ending {
        case .exited(let status): return "exited with status \(status)"
        case .signalled(let signal): return "killed by signal \(signal)"
        case .timedOut(let limit): return "still running after \(JSONLineWriter.number(limit, decimals: 3)) s; killed"
        case .notStarted(let why): return "could not start: \(why)"
        }
    }
}
