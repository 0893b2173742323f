import Foundation

/// What a suite that runs a real counterpart (a booted systemd, a qemu guest, a
/// compositor) lacks on this machine, and the loud message that says so when the suite is
/// skipped. Such a suite runs only in the tier that asks for them (`TestTier`).
public struct MissingCounterpart: Sendable {
    public let missing: [String]

    /// `programs` looked for in the system's directories, root when `needsRoot`, and the
    /// real-counterpart tier.
    public init(programs: [String], needsRoot: Bool) {
        var missing = programs.filter { name in
            !["/usr/bin", "/bin", "/usr/sbin", "/sbin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        if needsRoot && getuid() != 0 { missing.append("root") }
        if !TestTier.realCounterparts { missing.insert(TestTier.notAskedFor, at: 0) }
        self.missing = missing
    }

    /// What is missing, found by the suite's own means (a Python module, say).
    public init(missing: [String]) {
        self.missing = missing
    }

    /// Writes the banner to standard error when something is missing, and returns the
    /// skip reason for `.enabled(if:)`; "" when nothing is.
    public func skipReason(suite: String, why: String) -> String {
        guard !missing.isEmpty else { return "" }
        let message = """

            ************************************************************************
            SKIPPED: \(suite):
            missing: \(missing.joined(separator: ", ")).
            \(why)
            ************************************************************************

            """
        FileHandle.standardError.write(Data(message.utf8))
        return "missing: \(missing.joined(separator: ", "))"
    }
}
