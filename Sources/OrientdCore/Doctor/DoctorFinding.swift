/// One line of `orientd doctor`: what was checked, the verdict, what was seen, and, for
/// a problem, what to do about it.
public struct DoctorFinding: Equatable, Sendable {
    public enum Verdict: String, Sendable {
        /// As it should be.
        case ok
        /// Worth knowing, not a fault (no base sensor on a tablet, no hooks configured).
        case note
        /// Why the screen does not turn, or turns wrong: the exit status says so.
        case problem
    }

    /// The check's name, one word or two: `sensor`, `readings`, `gravity` …
    public var check: String
    public var verdict: Verdict
    public var detail: String
    /// A command or a step, for a problem (and for a note where one helps).
    public var fix: String?

    public init(_ check: String, _ verdict: Verdict, _ detail: String, fix: String? = nil) {
        self.check = check
        self.verdict = verdict
        self.detail = detail
        self.fix = fix
    }

    /// `ok       sensor        iio:device0 …`, then `         fix: …` under a problem.
    public var text: String {
        let mark = verdict == .problem ? "PROBLEM" : verdict.rawValue
        var text = mark.padding(to: 8) + check.padding(to: 14) + detail
        if let fix { text += "\n" + "".padding(to: 8) + "fix: " + fix }
        return text
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("check", check)
        json.add("verdict", verdict.rawValue)
        json.add("detail", detail)
        json.add("fix", fix)
        return json.line()
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
