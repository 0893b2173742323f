import Foundation
import Testing

@testable import OrientdCore

/// Every `ACCEL_MOUNT_MATRIX` in systemd's hwdb, the real file on this machine (Debian's
/// `udev` package; `scripts/install-dependencies` installs it).
@Suite("Mount matrices of systemd's 60-sensor.hwdb")
struct HwdbMountMatrixTests {
    static let path = "/usr/lib/udev/hwdb.d/60-sensor.hwdb"

    /// (line number, matrix text) of every property line.
    static func entries() throws -> [(Int, String)] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [(Int, String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.hasPrefix("#"), trimmed.hasPrefix("ACCEL_MOUNT_MATRIX=") else { continue }
            out.append((number + 1, String(trimmed.dropFirst("ACCEL_MOUNT_MATRIX=".count))))
        }
        return out
    }

    @Test("every entry parses; the singular ones are named, none is unusable")
    func everyEntry() throws {
        guard FileManager.default.fileExists(atPath: Self.path) else {
            Issue.record("\(Self.path) is missing: install Debian's 'udev' package (scripts/install-dependencies does)")
            return
        }
        let entries = try Self.entries()
        #expect(entries.count >= 150, "only \(entries.count) entries found")
        var singular: [String] = []
        for (line, text) in entries {
            do {
                let matrix = try MountMatrix(parsing: text)
                let findings = matrix.findings
                #expect(!findings.contains { $0.isFatal }, "\(Self.path):\(line): \(findings)")
                if findings.contains(.singular) { singular.append(text) }
                // Every entry maps gravity to gravity: the rows are unit axes, so a reading of
                // g stays g and the magnitude check still holds.
                if findings.isEmpty {
                    #expect(abs(matrix.apply(Vector3(0, 0, standardGravity)).length - standardGravity) < 1e-9)
                }
            } catch {
                Issue.record("\(Self.path):\(line): '\(text)' does not parse: \(error)")
            }
        }
        // systemd 252 has two singular entries, among them "1, 0, 0; 0, -1, 0; 1, 0, 0".
        #expect(singular.contains("1, 0, 0; 0, -1, 0; 1, 0, 0"))
        #expect(singular.count <= 5, "\(singular)")
    }
}
