import OrientdCore

/// The kinds of numbers a scenario contains, each with the units it accepts.
///
/// Durations must carry a unit (`2s`, `350ms`), because a bare number after a pose is
/// too easily an angle; the other kinds take a bare number in their natural unit.
enum Quantity: Sendable {
    case seconds
    case degrees
    case hertz
    case acceleration
    case metres
    case perSecond
    case fraction

    /// Shown in error messages after "expected".
    var example: String {
        switch self {
        case .seconds: "a duration like 2s or 350ms"
        case .degrees: "an angle in degrees like 30 or -12.5"
        case .hertz: "a frequency like 1.9 or 1.9hz"
        case .acceleration: "an acceleration in m/s² like 2.5, or in g like 0.3g"
        case .metres: "a length like 0.3, 0.3m or 30cm"
        case .perSecond: "a rate like 1.5 or 1.5/s"
        case .fraction: "a fraction like 0.02 or 2%"
        }
    }

    func parse(_ text: some StringProtocol) -> Double? {
        let t = Substring(text)
        func number(_ s: Substring, _ factor: Double = 1) -> Double? {
            guard !s.isEmpty, let v = Double(String(s)), v.isFinite else { return nil }
            // Dividing by the reciprocal of a small factor is exact where multiplying is
            // not: 350 / 1000 is 0.35, 350 · 0.001 is 0.35000000000000003.
            return factor < 1 ? v / (1 / factor).rounded() : v * factor
        }
        func suffixed(_ units: [(String, Double)], bareFactor: Double?) -> Double? {
            for (unit, factor) in units where t.hasSuffix(unit) {
                return number(t.dropLast(unit.count), factor)
            }
            return bareFactor.flatMap { number(t, $0) }
        }
        switch self {
        case .seconds: return suffixed([("ms", 0.001), ("s", 1)], bareFactor: nil)
        case .degrees: return suffixed([("deg", 1), ("°", 1)], bareFactor: 1)
        case .hertz: return suffixed([("hz", 1), ("Hz", 1)], bareFactor: 1)
        case .acceleration: return suffixed([("m/s2", 1), ("m/s²", 1), ("g", standardGravity)], bareFactor: 1)
        case .metres: return suffixed([("mm", 0.001), ("cm", 0.01), ("m", 1)], bareFactor: 1)
        case .perSecond: return suffixed([("/s", 1)], bareFactor: 1)
        case .fraction: return suffixed([("%", 0.01)], bareFactor: 1)
        }
    }
}
