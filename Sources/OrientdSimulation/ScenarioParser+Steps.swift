import OrientdCore

/// The steps of a scenario: repeats expanded, each line turned into a step with its
/// expectation.
extension ScenarioParser {
    // MARK: Steps

    /// Flattens `repeat N` … `end` blocks.
    func expand(_ lines: [Line], from position: inout Int, until opener: Line?) throws(ScenarioError) -> [Line] {
        var out: [Line] = []
        while position < lines.count {
            let line = lines[position]
            position += 1
            switch line.tokens[0] {
            case "end":
                guard opener != nil else { throw error(line.number, "'end' without a 'repeat' before it") }
                guard line.tokens.count == 1 else { throw error(line.number, "'end' takes nothing after it") }
                return out
            case "repeat":
                guard line.tokens.count == 2, let count = Int(line.tokens[1]), count >= 1 else {
                    throw error(line.number, "expected 'repeat N' with a whole number N ≥ 1, then steps, then 'end'")
                }
                let body = try expand(lines, from: &position, until: line)
                guard body.count * count + out.count <= Self.maximumSteps else {
                    throw error(
                        line.number,
                        "repeating \(body.count) step(s) \(count) times makes more than \(Self.maximumSteps) steps; use longer steps")
                }
                if body.contains(where: { $0.tokens[0] == "start" }) {
                    throw error(line.number, "'start' cannot be repeated; it sets the first pose")
                }
                for _ in 0..<count { out += body }
            default:
                out.append(line)
                guard out.count <= Self.maximumSteps else {
                    throw error(line.number, "more than \(Self.maximumSteps) steps")
                }
            }
        }
        if let opener { throw error(opener.number, "'repeat' without a matching 'end'") }
        return out
    }

    func step(_ line: Line) throws(ScenarioError) -> ScenarioStep {
        let tokens = line.tokens
        guard let command = ScenarioStep.Command(rawValue: String(tokens[0])) else {
            throw error(
                line.number,
                "unknown step '\(tokens[0])'; expected one of \(ScenarioStep.words.joined(separator: ", ")), or a setting like 'rate: 50' before the steps"
            )
        }
        var step = ScenarioStep(command: command, line: line.number)
        var i = 1
        while i < tokens.count {
            i += try take(tokens, at: i, into: &step, line: line.number)
        }
        if command != .start, step.duration == nil {
            throw error(line.number, "'\(command)' needs a duration, like '\(command) \(command.takesPose ? "landscape-left " : "")2s'")
        }
        if command == .start, step.pose.isEmpty {
            throw error(
                line.number,
                "'start' needs a pose; expected one of \(Self.poseNames), optionally with 'tilt DEG', 'roll DEG', 'heading DEG'")
        }
        return step
    }

    /// Takes the word at `i` (and what follows it, if it needs it) into `step`; how many
    /// words it took.
    private func take(
        _ tokens: [Substring], at i: Int, into step: inout ScenarioStep, line: Int
    ) throws(ScenarioError) -> Int {
        let token = tokens[i]
        let word = String(token)
        let command = step.command
        if word == "expect" {
            try expectation(tokens.dropFirst(i + 1).first.map(String.init), into: &step, line: line)
            return 2
        }
        if let equals = token.firstIndex(of: "=") {
            let key = String(token[..<equals])
            let value = token[token.index(after: equals)...]
            guard !key.isEmpty, !value.isEmpty else { throw error(line, "'\(token)': expected key=value") }
            let option = ScenarioStep.Option(key: key, value: value)
            if step.modifiers.isEmpty {
                step.options.append(option)
            } else {
                step.modifiers[step.modifiers.count - 1].options.append(option)
            }
            return 1
        }
        if Modifier.words.contains(word) {
            guard command != .start else {
                throw error(line, "'start' sets the first pose and takes no modifiers like '\(word)'; put them on the next step")
            }
            guard !step.modifiers.contains(where: { $0.word == word }) else {
                throw error(line, "modifier '\(word)' is given twice")
            }
            step.modifiers.append(ScenarioStep.ModifierUse(word: word, options: []))
            return 1
        }
        if command.takesPose, let taken = try pose(tokens, at: i, into: &step, line: line) { return taken }
        if command == .flip, word == "long" || word == "short" {
            guard step.flipAxis == nil else { throw error(line, "flip axis is given twice") }
            step.flipAxis = word
            return 1
        }
        if let d = Quantity.seconds.parse(token) {
            guard command != .start else { throw error(line, "'start' takes no duration; follow it with 'hold \(token)'") }
            guard step.duration == nil else { throw error(line, "two durations in one step") }
            guard d > 0, d <= 1_000_000 else {
                throw error(line, "duration \(token) is out of range; expected more than 0 s and at most 1000000 s")
            }
            step.duration = d
            return 1
        }
        if Double(word) != nil {
            throw error(
                line,
                "'\(token)' has no unit; a duration needs one, like \(token)s or \(token)ms, and an angle follows roll, tilt or heading"
            )
        }
        throw error(line, "unexpected '\(token)' in '\(command)'; expected \(Self.expectation(for: command))")
    }

    /// `expect POSE`, `expect stable` or `expect -`: the label of the step's samples.
    private func expectation(_ value: String?, into step: inout ScenarioStep, line: Int) throws(ScenarioError) {
        guard let value else {
            throw error(line, "'expect' needs a device orientation or '-' after it; expected one of \(Self.labelNames)")
        }
        guard step.expect == nil else { throw error(line, "'expect' is given twice") }
        if value == "-" {
            step.expect = .some(nil)
        } else if value == "stable" {
            step.expect = .some(.stable)
        } else if let o = DeviceOrientation(rawValue: value), o != .unknown {
            step.expect = .some(.pose(o))
        } else {
            throw error(line, "expect '\(value)': expected one of \(Self.labelNames)")
        }
    }

    /// A pose's name, or `roll`, `tilt` or `heading` and its angle; nil when the word at
    /// `i` is neither.
    private func pose(_ tokens: [Substring], at i: Int, into step: inout ScenarioStep, line: Int) throws(ScenarioError) -> Int? {
        let word = String(tokens[i])
        if let o = DeviceOrientation(rawValue: word), o != .unknown {
            if let named = step.pose.name {
                throw error(line, "two poses ('\(named.rawValue)' and '\(word)') in one step")
            }
            step.pose.name = o
            return 1
        }
        guard word == "roll" || word == "tilt" || word == "heading" else { return nil }
        guard i + 1 < tokens.count, let v = Quantity.degrees.parse(tokens[i + 1]) else {
            throw error(line, "'\(word)' needs \(Quantity.degrees.example) after it")
        }
        switch word {
        case "roll":
            guard step.pose.roll == nil else { throw error(line, "'roll' is given twice") }
            step.pose.roll = v
        case "tilt":
            guard step.pose.tilt == nil else { throw error(line, "'tilt' is given twice") }
            guard (-90...90).contains(v) else {
                throw error(line, "tilt \(tokens[i + 1]) is out of range; expected -90 (screen down) … 90 (screen up)")
            }
            step.pose.tilt = v
        default:
            guard step.pose.heading == nil else { throw error(line, "'heading' is given twice") }
            step.pose.heading = v
        }
        return 2
    }

    private static let poseNames = DeviceOrientation.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", ")
    private static let labelNames = poseNames + ", stable or -"

    private static func expectation(for command: ScenarioStep.Command) -> String {
        var parts: [String] = []
        if command.takesPose { parts.append("a pose (\(poseNames), roll DEG, tilt DEG, heading DEG)") }
        if command == .flip { parts.append("'long' or 'short'") }
        if command != .start {
            parts.append("a duration like 2s")
            parts.append("key=value options")
            parts.append("modifiers (\(Modifier.words.joined(separator: ", ")))")
        }
        parts.append("'expect NAME'")
        return parts.joined(separator: ", ")
    }
}
