/// Something wrong in a text input (a recording, a scenario, a configuration file), named
/// by place: `FILE:LINE: message`, the form compilers use, so editors can jump to it.
public struct InputIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as the user gave it, or `<stdin>`.
    public var source: String
    /// 1-based line number; 0 when the issue is about the whole input (e.g. it ended early).
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(source):\(line): \(message)" : "\(source): \(message)"
    }
}
