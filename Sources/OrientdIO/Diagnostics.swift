import SystemPackage

/// Messages for people, on standard error, never mixed into the event stream.
///
/// Repeated warnings of one kind are limited (`limit`), then counted, so a recording
/// with a million bad lines still gives a readable report and a summary.
public final class Diagnostics {
    public enum Level: String { case error, warning, note }

    private let descriptor: FileDescriptor
    public let program: String
    public let warningLimit: Int
    public private(set) var warningCount = 0
    public private(set) var suppressedWarnings = 0
    public var quiet = false

    public init(program: String = "orientd", descriptor: FileDescriptor = .standardError, warningLimit: Int = 20) {
        self.program = program
        self.descriptor = descriptor
        self.warningLimit = warningLimit
    }

    public func emit(_ level: Level, _ message: String) {
        if level == .warning {
            warningCount += 1
            if warningCount > warningLimit {
                suppressedWarnings += 1
                return
            }
        }
        if quiet && level == .note { return }
        let text = "\(program): \(level.rawValue): \(message)\n"
        _ = try? descriptor.writeAll(Array(text.utf8))
    }

    public func error(_ message: String) { emit(.error, message) }
    public func warning(_ message: String) { emit(.warning, message) }
    public func note(_ message: String) { emit(.note, message) }

    /// Says how many warnings were not shown, if any.
    public func summarise() {
        if suppressedWarnings > 0 {
            let text = "\(program): note: \(suppressedWarnings) more warning(s) not shown (\(warningCount) in all)\n"
            _ = try? descriptor.writeAll(Array(text.utf8))
        }
    }
}
