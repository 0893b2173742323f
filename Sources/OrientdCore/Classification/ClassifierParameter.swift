/// One parameter of the classifier, written once: its name (a flag of `run`, `replay`,
/// `explain` and `evaluate`, and a key of orientd.conf), its unit, the values it may take,
/// its help, the values `scripts/sweep-parameters` tries, and the value a naive classifier
/// gives it. Its default is `ClassifierParameters`'s. The flags, the configuration keys,
/// the man page (from the flags' help), `orientd config parameters` and the scripts that
/// read it all come from `all`; tests check the shipped orientd.conf and
/// docs/classifier.md against it.
public struct ClassifierParameter: Sendable {
    public enum Unit: String, Sendable {
        case seconds = "s"
        case degrees = "°"
        case acceleration = "m/s²"
        case count = ""
    }

    /// The values a parameter may take, beyond being a finite number ≥ 0.
    public enum Bound: Sendable, Hashable {
        case none
        /// More than 0.
        case positive
        /// Below this (exclusive).
        case below(Double)
        /// At most this.
        case atMost(Double)
        /// A whole number, at least this.
        case wholeFrom(Int)
    }

    public let name: String
    public let unit: Unit
    public let bound: Bound
    /// One sentence for `--help`, the man page and `orientd config parameters`.
    public let summary: String
    /// An example of a use, for `--help`.
    public let example: String
    /// The values `scripts/sweep-parameters` tries; empty when it is not swept.
    public let sweep: [Double]
    /// The value that turns its rule off in a naive classifier (no filter, no gate, no
    /// hysteresis: roughly rot8 and iio-sensor-proxy), which the discrimination tests and
    /// `scripts/evaluate-real` measure against; nil to keep the default.
    public let naive: Double?
    private let read: @Sendable (ClassifierParameters) -> Double
    private let write: @Sendable (inout ClassifierParameters, Double) -> Void

    init(
        _ name: String, _ unit: Unit, bound: Bound = .none, _ summary: String, example: String, sweep: [Double] = [],
        naive: Double?, read: @escaping @Sendable (ClassifierParameters) -> Double,
        write: @escaping @Sendable (inout ClassifierParameters, Double) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.bound = bound
        self.summary = summary
        self.example = example
        self.sweep = sweep
        self.naive = naive
        self.read = read
        self.write = write
    }

    public func value(in parameters: ClassifierParameters) -> Double { read(parameters) }
    public func set(_ value: Double, in parameters: inout ClassifierParameters) { write(&parameters, value) }
    public var defaultValue: Double { read(ClassifierParameters()) }

    /// The default as people read it: "0.12 s", "20°", "2".
    public var defaultText: String {
        let number = JSONLineWriter.number(defaultValue, decimals: 3)
        switch unit {
        case .count: return number
        case .degrees: return number + "°"
        case .seconds, .acceleration: return "\(number) \(unit.rawValue)"
        }
    }

    /// Why `value` cannot be this parameter's, or nil when it can.
    public func problem(with value: Double) -> String? {
        let shown = value.isFinite ? JSONLineWriter.number(value, decimals: 6) : "\(value)"
        guard value.isFinite, value >= 0 else { return "must be a finite number ≥ 0, got \(shown)" }
        switch bound {
        case .none: return nil
        case .positive: return value > 0 ? nil : "must be > 0"
        case .below(let limit): return value < limit ? nil : "must be below \(Int(limit)) degrees, got \(shown)"
        case .atMost(let limit): return value <= limit ? nil : "must be at most \(Int(limit)) degrees, got \(shown)"
        case .wholeFrom(let least):
            return value >= Double(least) && value.rounded() == value ? nil : "must be a whole number, at least \(least), got \(shown)"
        }
    }
}

extension ClassifierParameters {
    /// The classifier of the discrimination tests and `scripts/evaluate-real`: every rule
    /// that stops flapping turned off (`ClassifierParameter.naive`).
    public static var naive: ClassifierParameters {
        var p = ClassifierParameters()
        for parameter in ClassifierParameter.all { if let value = parameter.naive { parameter.set(value, in: &p) } }
        return p
    }
}

extension ClassifierParameter {
    /// The values it may take, for people: "≥ 0", "0 – 45 (below)", "a whole number ≥ 1".
    public var boundText: String {
        switch bound {
        case .none: "≥ 0"
        case .positive: "> 0"
        case .below(let limit): "≥ 0, below \(JSONLineWriter.number(limit, decimals: 3))"
        case .atMost(let limit): "0 – \(JSONLineWriter.number(limit, decimals: 3))"
        case .wholeFrom(let least): "whole, ≥ \(least)"
        }
    }

    /// The entry as one JSON object line, for scripts (`orientd config parameters --json`).
    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("name", name)
        json.add("unit", unit.rawValue)
        json.add("default", defaultValue)
        json.add("bound", boundText)
        json.add("summary", summary)
        json.add("sweep", numbers: sweep)
        if let naive { json.add("naive", naive) } else { json.addNull("naive") }
        return json.line()
    }
}
