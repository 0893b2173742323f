import OrientdCore

/// Reads the scenario language: settings lines (`key: value`) first, then steps, one per
/// line, with `repeat N` … `end` blocks. `#` starts a comment (at the start of a line or
/// after a space).
struct ScenarioParser {
    let source: String
    let text: String

    /// Expanding `repeat` must not be a way to ask for unbounded memory.
    static let maximumSteps = 100_000

    private struct Line {
        var number: Int
        var tokens: [Substring]
    }

    func parse() throws(ScenarioError) -> Scenario {
        var settings = SensorSettings()
        var name: String?
        var description = ""
        var seen: Set<String> = []
        var stepLines: [Line] = []
        var lastLine = 1
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = Self.withoutComment(raw).trimmingBlanks
            guard !content.isEmpty else { continue }
            lastLine = number
            let firstToken = content.prefix { $0 != " " && $0 != "\t" }
            if let colon = firstToken.firstIndex(of: ":") {
                let key = String(content[..<colon])
                let value = content[content.index(after: colon)...].trimmingBlanks
                guard stepLines.isEmpty else {
                    throw error(number, "setting '\(key):' after the first step; settings go at the top, before 'start'")
                }
                guard seen.insert(key).inserted else { throw error(number, "'\(key):' is set twice") }
                switch key {
                case "name":
                    guard !value.isEmpty, !value.contains(" ") else {
                        throw error(number, "name: expected one word, like walking-turn-to-landscape")
                    }
                    name = String(value)
                case "description":
                    guard !value.isEmpty else { throw error(number, "description: expected a sentence describing the situation") }
                    description = String(value)
                default:
                    try apply(key: key, value: value, line: number, to: &settings)
                }
            } else {
                stepLines.append(Line(number: number, tokens: content.split(whereSeparator: { $0 == " " || $0 == "\t" })))
            }
        }
        var position = 0
        let flat = try expand(stepLines, from: &position, until: nil)
        guard !flat.isEmpty else {
            throw error(lastLine, "no steps; expected 'start POSE' followed by steps such as 'hold 3s'")
        }
        var builder = TimelineBuilder(source: source, settings: settings)
        for line in flat {
            try builder.add(step(line))
        }
        guard builder.duration > 0 else {
            throw error(lastLine, "the scenario lasts no time; expected at least one step with a duration after 'start', like 'hold 3s'")
        }
        return Scenario(
            name: name ?? Scenario.baseName(of: source), description: description, source: source,
            settings: settings, segments: builder.segments)
    }

    private func error(_ line: Int, _ message: String) -> ScenarioError {
        ScenarioError(source: source, line: line, message: message)
    }

    private static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "#", previous == " " || previous == "\t" { return line[..<i] }
            previous = line[i]
        }
        return line
    }

    // MARK: Settings

    private func apply(key: String, value: Substring, line: Int, to s: inout SensorSettings) throws(ScenarioError) {
        func number(_ q: Quantity, _ range: ClosedRange<Double>) throws(ScenarioError) -> Double {
            guard let v = q.parse(value) else { throw error(line, "\(key): '\(value)' is not \(q.example)") }
            guard range.contains(v) else {
                throw error(
                    line,
                    "\(key): \(value) is out of range; expected \(PoseSpec.format(range.lowerBound))…\(PoseSpec.format(range.upperBound))")
            }
            return v
        }
        switch key {
        case "rate":
            s.rate = try number(.hertz, 1...1000)
        case "noise":
            s.noise = try number(.acceleration, 0...5)
        case "lsb":
            s.lsb = try number(.acceleration, 0...1)
        case "range":
            s.range = try number(.acceleration, 1...2000)
        case "jitter":
            s.jitter = try number(.seconds, 0...1)
        case "drop":
            s.drop = try number(.fraction, 0...0.5)
        case "duplicate":
            s.duplicate = try number(.fraction, 0...0.5)
        case "filter":
            guard let f = SensorSettings.Filter(rawValue: String(value)) else {
                throw error(
                    line, "filter: '\(value)'; expected 'average' (the mean over each sample period) or 'none' (instantaneous values)")
            }
            s.filter = f
        case "natural":
            guard let n = NaturalOrientation(rawValue: String(value)) else {
                throw error(line, "natural: '\(value)'; expected portrait or landscape")
            }
            s.natural = n
        case "mount-matrix":
            let m: MountMatrix
            do {
                m = try MountMatrix(parsing: value)
            } catch let e {
                throw error(line, "mount-matrix: \(e.message)")
            }
            guard m.inverse != nil else {
                throw error(
                    line, "mount-matrix: '\(value)' is singular; a simulated sensor needs an invertible mounting (raw = M⁻¹ · corrected)")
            }
            s.mountMatrix = m
        case "pivot":
            s.pivot = try vector(value, key: key, line: line, quantity: .metres, limit: 1, example: "0, 0.05, -0.05")
        case "bias":
            s.bias = try perAxis(
                value, key: key, line: line, quantity: .acceleration, limit: 3, example: "0.1, -0.2, 0.05", randomExample: "random 0.25")
        case "scale-error":
            s.scaleError = try perAxis(
                value, key: key, line: line, quantity: .fraction, limit: 0.2, example: "1%, -2%, 0.5%", randomExample: "random 2%")
        case "sensor":
            guard value == "ideal" else {
                throw error(
                    line,
                    "sensor: '\(value)'; expected 'ideal' (no noise, bias, scale error, quantisation or clipping; later lines may add some back)"
                )
            }
            s.noise = 0
            s.bias = .fixed(.zero)
            s.scaleError = .fixed(.zero)
            s.lsb = 0
            s.range = 2000
        default:
            throw error(
                line,
                "unknown setting '\(key):'; expected one of name, description, rate, mount-matrix, natural, sensor, noise, bias, scale-error, lsb, range, filter, jitter, drop, duplicate, pivot"
            )
        }
    }

    private func vector(_ value: Substring, key: String, line: Int, quantity: Quantity, limit: Double, example: String)
        throws(ScenarioError) -> Vector3
    {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        var values: [Double] = []
        for part in parts {
            guard let v = quantity.parse(part.trimmingBlanks), abs(v) <= limit else { break }
            values.append(v)
        }
        guard parts.count == 3, values.count == 3 else {
            throw error(
                line,
                "\(key): '\(value)'; expected three values separated by commas, like '\(example)', each \(quantity.example) within ±\(PoseSpec.format(limit))"
            )
        }
        return Vector3(values[0], values[1], values[2])
    }

    private func perAxis(
        _ value: Substring, key: String, line: Int, quantity: Quantity, limit: Double, example: String, randomExample: String
    ) throws(ScenarioError) -> SensorSettings.PerAxis {
        let words = value.split(separator: " ")
        if words.first == "random" {
            guard words.count == 2, let v = quantity.parse(words[1]), v >= 0, v <= limit else {
                throw error(line, "\(key): '\(value)'; expected 'random' and the largest error, like '\(randomExample)'")
            }
            return .random(v)
        }
        if let v = quantity.parse(value), v == 0 { return .fixed(.zero) }
        return .fixed(try vector(value, key: key, line: line, quantity: quantity, limit: limit, example: example))
    }

    // MARK: Steps

    /// Flattens `repeat N` … `end` blocks.
    private func expand(_ lines: [Line], from position: inout Int, until opener: Line?) throws(ScenarioError) -> [Line] {
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

    private func step(_ line: Line) throws(ScenarioError) -> ScenarioStep {
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
