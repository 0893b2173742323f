extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns (files written on
    /// Windows end their lines in CR LF).
    var trimmed: Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return s
    }
}
