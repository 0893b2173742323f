/// The text of a configuration file (`/etc/orientd.conf`): one `key = value` per line,
/// where each key is the long name of a `run` flag and the value what the flag takes:
///
///     # the screen never turns upside down on this tablet
///     supported = all-but-upside-down
///     exec = orientd-rotate-sway
///     wait = true
///
/// Blank lines and lines starting with `#` are ignored; the value is everything after the
/// `=` with the blanks around it trimmed, so it needs no quoting. Which keys exist and
/// what their values may be is the command line's business: this type only reads lines.
public struct ConfigurationFile: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: String
        /// 1-based.
        public var line: Int
    }

    public var source: String
    public var entries: [Entry]
    /// Lines that are not `key = value`.
    public var issues: [InputIssue]

    public init(parsing text: String, source: String) {
        self.source = source
        entries = []
        issues = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingBlanks
            if line.isEmpty || line.first == "#" { continue }
            guard let equals = line.firstIndex(of: "=") else {
                issues.append(InputIssue(source: source, line: index + 1, message: "expected 'key = value', got '\(line)'"))
                continue
            }
            let key = String(line[..<equals].trimmingBlanks)
            let value = String(line[line.index(after: equals)...].trimmingBlanks)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                issues.append(
                    InputIssue(
                        source: source, line: index + 1, message: "'\(key)' is not a setting name (letters and '-', as the long flags)"))
                continue
            }
            entries.append(Entry(key: key.lowercased(), value: value, line: index + 1))
        }
    }
}
