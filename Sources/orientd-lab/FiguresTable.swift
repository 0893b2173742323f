import OrientdCore
import OrientdEvaluation

/// `evaluate --table`: one line per recording, the device pose's figures then the screen's.
enum FiguresTable {
    static let nameWidth = 44
    static let columns = "holds missed  median     p95  accuracy  changes/h  moving/min"

    static var header: String {
        pad("recording", nameWidth) + " | pose:   " + columns + " | screen: " + columns + " |   read  still/s"
    }

    /// `read`: the share of the samples read (the adaptive rate skips the rest); `still`:
    /// those read a second while at rest.
    static func row(name: String, device: EvaluationFigures, screen: EvaluationFigures, read: Double?, still: Double?) -> String {
        let shown = name.count > nameWidth ? "…" + name.suffix(nameWidth - 1) : Substring(name)
        return pad(String(shown), nameWidth) + " | pose:   " + cells(device) + " | screen: " + cells(screen) + " | "
            + lpad(percent(read), 6) + " " + lpad(still.map { JSONLineWriter.number($0, decimals: 2) } ?? "-", 8)
    }

    static func percent(_ a: Double?) -> String { a.map { JSONLineWriter.number($0 * 100, decimals: 1) + " %" } ?? "-" }

    static func cells(_ f: EvaluationFigures) -> String {
        func ms(_ s: Double?) -> String { s.map { "\(Int(($0 * 1000).rounded())) ms" } ?? "-" }
        return [
            lpad("\(f.holds)", 5), lpad("\(f.missed)", 6), lpad(ms(f.medianLatency), 7), lpad(ms(f.p95Latency), 7),
            lpad(percent(f.accuracy), 9), lpad(f.spuriousPerHour.map { JSONLineWriter.number($0, decimals: 1) } ?? "-", 10),
            lpad(f.motionChangesPerMinute.map { JSONLineWriter.number($0, decimals: 1) } ?? "-", 11),
        ].joined(separator: " ")
    }

    static func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
    static func lpad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
}
