import Foundation
import Testing

@Suite("Configuration file")
struct ConfigurationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("config check names every bad line, with run's own message for a bad value")
    func check() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "bad.conf",
            """
            # comment
            supported = all-but-upside-down
            rate = 5000
            wait = maybe
            colour = blue
            supported = portrait
            just words
            exec = sh -c 'echo $ORIENTD_SCREEN'
            hold-time = 0.2

            """)
        let result = try OrientdProcess.run(["config", "check", path])
        #expect(result.status == 78)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.contains("orientd: error: \(path):3: rate: --rate must be between 0.1 and 2000 Hz, got 5000.0"))
        #expect(lines.contains("orientd: error: \(path):4: wait: expected true or false, got 'maybe'"))
        #expect(lines.contains { $0.hasPrefix("orientd: error: \(path):5: unknown setting 'colour'") })
        #expect(lines.contains("orientd: error: \(path):6: supported is already set on line 2"))
        #expect(lines.contains("orientd: error: \(path):7: expected 'key = value', got 'just words'"))

        let refused = try OrientdProcess.run(["run", "--config", path])
        #expect(refused.status == 78, "run refuses a broken file before doing anything")
        #expect(refused.stderr.contains("\(path):3: rate"))

        let missing = try OrientdProcess.run(["config", "check", scratch.directory.path + "/none.conf"])
        #expect(missing.status == 66)
    }

    @Test("every example in the shipped orientd.conf is a valid setting once uncommented")
    func shippedExamples() throws {
        let shipped = try String(contentsOf: Self.repository.appendingPathComponent("systemd/orientd.conf"), encoding: .utf8)
        let asIs = try OrientdProcess.run(["config", "check", Self.repository.appendingPathComponent("systemd/orientd.conf").path])
        #expect(asIs.status == 0)
        #expect(asIs.stdout.contains("0 setting(s), all valid"))
        // Uncommented; the group orientd exists only where the package made it.
        let examples = shipped.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("#") && $0.dropFirst().first?.isLetter == true && $0.contains(" = ") }
            .map { String($0.dropFirst()) }
            .filter { !$0.hasPrefix("socket-group") }
        // Two exec lines are fine, two of anything else is not.
        #expect(examples.count >= 15)
        let scratch = try Scratch()
        let path = try scratch.write("all.conf", examples.joined(separator: "\n") + "\n")
        let result = try OrientdProcess.run(["config", "check", path])
        #expect(result.status == 0, "\(result.stderr)")
        let show = try OrientdProcess.run(["config", "show", path])
        #expect(show.stdout.hasPrefix("orientd run --supported all-but-upside-down --natural landscape"))
        #expect(show.stdout.contains("--exec 'notify-send \"screen rotated\"'"))
    }
}
