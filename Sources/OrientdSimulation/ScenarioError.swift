/// A mistake in a scenario file, located by file and line.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name the scenario was read from, as given to `Scenario(parsing:source:)`.
    public var source: String
    /// 1-based line number.
    public var line: Int
    /// What is wrong and what was expected.
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: what is wrong and what was expected`, the form editors and compilers use,
    /// so that a terminal or an editor can jump to the line.
    public var description: String { "\(source):\(line): \(message)" }
}
