/// `{"event":"hooks",...}`: how the `--exec` hooks for one screen orientation change
/// ended, reconciled into one outcome (failed beats changed beats unchanged).
public enum HooksEvent {
    public static func line(time: Double, screen: String, results: [HookResult]) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "hooks")
        json.add("time", time)
        json.add("screen", screen)
        json.add("outcome", HookOutcome.reconcile(results.map(\.outcome))?.rawValue)
        var list: [UInt8] = [UInt8(ascii: "[")]
        for (i, result) in results.enumerated() {
            if i > 0 { list.append(UInt8(ascii: ",")) }
            var item = JSONLineWriter()
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
            list.append(contentsOf: item.line().dropLast())  // no newline inside the list
        }
        list.append(UInt8(ascii: "]"))
        json.addRaw("results", list)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
