/// `{"event":"hooks",...}`: how the `--exec` hooks for one screen orientation change
/// ended, reconciled into one outcome (failed beats changed beats unchanged).
public struct HooksEvent: Hashable, Sendable {
    public var time: Double
    /// The screen orientation the hooks were run for (its W3C type).
    public var screen: String
    public var results: [HookResult]

    public init(time: Double, screen: String, results: [HookResult]) {
        self.time = time
        self.screen = screen
        self.results = results
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "hooks")
        json.add("time", time)
        json.add("screen", screen)
        json.add("outcome", HookOutcome.reconcile(results.map(\.outcome))?.rawValue)
        json.add("results", objects: results) { item, result in
            item.add("command", result.command.text)
            item.add("outcome", result.outcome.rawValue)
            switch result.ending {
            case .exited(let status): item.add("exit", Int(status))
            case .signalled(let signal): item.add("signal", Int(signal))
            case .timedOut: item.add("timeout", true)
            case .notStarted: item.add("started", false)
            }
            item.add("seconds", result.seconds, decimals: 3)
            if let failure = result.failure { item.add("error", failure) }
        }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
