import OrientdCore

/// Reads the scenario language: settings lines (`key: value`) first, then steps, one per
/// line, with `repeat N` … `end` blocks. `#` starts a comment (at the start of a line or
/// after a space).
struct ScenarioParser {
    let source: String
    let text: String

    /// Expanding `repeat` must not be a way to ask for unbounded memory.
    static let maximumSteps = 100_000

    struct Line {
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

    func error(_ line: Int, _ message: String) -> ScenarioError {
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
}
