import OrientdCore

/// Reads the `key=value` options of one command or modifier, checking each value's
/// units and range and that no unknown or repeated key is left over.
struct OptionReader {
    let source: String
    let line: Int
    /// "walking", "pick-up", …, for messages.
    let owner: String
    private var options: [ScenarioStep.Option]
    private var known: [String] = []

    init(source: String, line: Int, owner: String, options: [ScenarioStep.Option]) throws(ScenarioError) {
        self.source = source
        self.line = line
        self.owner = owner
        self.options = options
        var seen: Set<String> = []
        for option in options where !seen.insert(option.key).inserted {
            throw ScenarioError(source: source, line: line, message: "option '\(option.key)' is given twice for \(owner)")
        }
    }

    private mutating func value(_ key: String) -> Substring? {
        known.append(key)
        return options.first { $0.key == key }?.value
    }

    mutating func number(_ key: String, _ quantity: Quantity, default fallback: Double, in range: ClosedRange<Double>) throws(ScenarioError)
        -> Double
    {
        guard let text = value(key) else { return fallback }
        guard let v = quantity.parse(text) else {
            throw ScenarioError(source: source, line: line, message: "\(owner) \(key)=\(text): expected \(quantity.example)")
        }
        guard range.contains(v) else {
            throw ScenarioError(
                source: source, line: line,
                message:
                    "\(owner) \(key)=\(text) is out of range; expected \(PoseSpec.format(range.lowerBound))…\(PoseSpec.format(range.upperBound))"
            )
        }
        return v
    }

    mutating func vector(_ key: String, default fallback: Vector3, limit: Double) throws(ScenarioError) -> Vector3 {
        guard let text = value(key) else { return fallback }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var values: [Double] = []
        for part in parts {
            guard let v = Quantity.metres.parse(part.trimmingBlanks), abs(v) <= limit else { break }
            values.append(v)
        }
        guard parts.count == 3, values.count == 3 else {
            throw ScenarioError(
                source: source, line: line,
                message:
                    "\(owner) \(key)=\(text): expected three lengths separated by commas, like \(key)=0,0.05,-0.05 (each within ±\(PoseSpec.format(limit)) m)"
            )
        }
        return Vector3(values[0], values[1], values[2])
    }

    mutating func word(_ key: String, allowed: [String], default fallback: String) throws(ScenarioError) -> String {
        guard let text = value(key) else { return fallback }
        guard allowed.contains(String(text)) else {
            throw ScenarioError(
                source: source, line: line, message: "\(owner) \(key)=\(text): expected one of \(allowed.joined(separator: ", "))")
        }
        return String(text)
    }

    /// Fails on any option that no read asked for.
    func finish() throws(ScenarioError) {
        for option in options where !known.contains(option.key) {
            let expected = known.isEmpty ? "\(owner) takes no options" : "expected one of \(known.joined(separator: ", "))"
            var message = "unknown option '\(option.key)' for \(owner); \(expected)"
            if Modifier.words.contains(owner) {
                message += " (options of the step itself go before its first modifier)"
            }
            throw ScenarioError(source: source, line: line, message: message)
        }
    }
}
