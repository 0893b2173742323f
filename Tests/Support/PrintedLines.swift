import Foundation
import OrientdIO

// Testing is there for the tests' debug builds only; a release build (make package,
// scripts/demo) compiles this target too and checks nothing.
#if canImport(Testing)
    import Testing
#endif

/// Checks the event and reply lines orientd printed in a test against the published
/// schema (docs/events.schema.json), failing the running test with the line and what is
/// wrong. Called where the tests read orientd's output: `OrientdProcess.run`,
/// `DaemonProcess`, the control client's `request` and `lines`.
///
/// A line is checked when it is a JSON object with "event" or "reply": orientd's other
/// output (list, evaluate, record ...) is not in the schema.
public enum PrintedLines {
    /// How many lines were checked, per kind ("event orientation", "reply status" ...):
    /// with ORIENTD_SCHEMA_COVERAGE set to a file, each check appends its kind there, so
    /// a whole run can show which kinds the suite printed.
    private static let coverage: String? = ProcessInfo.processInfo.environment["ORIENTD_SCHEMA_COVERAGE"]
    private static let coverageLock = Guarded(())

    public static func check(_ lines: some Sequence<some StringProtocol>, from source: String) {
        let schema: EventSchema
        switch EventSchema.published {
        case .success(let s): schema = s
        case .failure(let error):
            fail("cannot check orientd's lines: \(error)")
            return
        }
        var kinds: [String] = []
        for (number, line) in lines.enumerated() where line.hasPrefix("{") {
            guard let value = try? JSONValue(parsing: String(line)) else { continue }
            let kind: String
            if case .string(let event)? = value["event"] {
                kind = "event \(event)"
            } else if case .string(let reply)? = value["reply"] {
                kind = "reply \(reply)"
            } else {
                continue
            }
            kinds.append(kind)
            let errors = schema.errors(in: value)
            if !errors.isEmpty {
                fail(
                    """
                    line \(number + 1) of \(source) does not match docs/events.schema.json:
                    \(line)
                    \(errors.map { "  - \($0)" }.joined(separator: "\n"))
                    """)
            }
        }
        if let coverage, !kinds.isEmpty {
            coverageLock.withLock { _ in
                guard let handle = FileHandle(forWritingAtPath: coverage) ?? createFile(coverage) else { return }
                handle.seekToEndOfFile()
                handle.write(Data(kinds.map { $0 + "\n" }.joined().utf8))
                try? handle.close()
            }
        }
    }

    /// Fails the running test (Swift Testing knows it from the task).
    private static func fail(_ message: String) {
        #if canImport(Testing)
            Issue.record(Comment(rawValue: message))
        #else
            FileHandle.standardError.write(Data((message + "\n").utf8))
        #endif
    }

    private static func createFile(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }
}
