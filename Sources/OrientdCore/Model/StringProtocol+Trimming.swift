extension StringProtocol {
    /// Without spaces, tabs and carriage returns at either end: what every text orientd
    /// reads (recordings, scenarios, the configuration file, requests, mount matrices)
    /// treats as no content. A carriage return counts, as files written on Windows end
    /// their lines in CR LF.
    public var trimmingBlanks: Substring { trimming(where: \.isBlank) }

    /// Without spaces, tabs and carriage returns at the end.
    public var trimmingTrailingBlanks: Substring {
        var s = Substring(self)
        while let last = s.last, last.isBlank { s.removeLast() }
        return s
    }

    /// The text of a sysfs attribute without the newline the kernel ends it with, or the
    /// NUL libiio writes after it, or surrounding spaces.
    public var trimmingSysfs: String { String(trimming { $0 == "\0" || $0.isWhitespace }) }

    private func trimming(where isTrimmed: (Character) -> Bool) -> Substring {
        var s = Substring(self)
        while let first = s.first, isTrimmed(first) { s.removeFirst() }
        while let last = s.last, isTrimmed(last) { s.removeLast() }
        return s
    }
}

extension Character {
    fileprivate var isBlank: Bool { self == " " || self == "\t" || self == "\r" }
}
