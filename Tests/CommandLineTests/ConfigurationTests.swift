import Foundation
import OrientdCore
import OrientdOptions
import OrientdTestSupport
import Testing

@testable import orientd

@Suite("Configuration file")
struct ConfigurationTests {
    static let repository = Repository.root

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

    /// Run's flags as its own parser declares them (swift-argument-parser's dump of the
    /// command), by long name: "option", "repeatable" or "flag".
    static func runFlags() throws -> [String: String] {
        let dump = try OrientdProcess.run(["run", "--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump.stderr)")
        struct Tool: Decodable {
            struct Command: Decodable { var arguments: [Argument] }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var isRepeating: Bool?
                var names: [Name]?
            }
            var command: Command
        }
        let tool = try JSONDecoder().decode(Tool.self, from: Data(dump.stdout.utf8))
        var flags: [String: String] = [:]
        for argument in tool.command.arguments {
            for name in argument.names ?? [] where name.kind == "long" {
                flags[name.name] = argument.kind == "flag" ? "flag" : (argument.isRepeating == true ? "repeatable" : "option")
            }
        }
        return flags
    }

    @Test("the file's settings are run's long flags, each taken the way run takes it, and orientd.conf shows each")
    func settingsAreRunsFlags() throws {
        // Not settings: the flags about the file itself, and the parser's own.
        let notSettings: Set = ["config", "no-config", "help", "version"]
        let flags = try Self.runFlags().filter { !notSettings.contains($0.key) }
        let settings = ConfigurationSettings.keys.mapValues { kind in
            switch kind {
            case .option: "option"
            case .repeatable: "repeatable"
            case .flag: "flag"
            }
        }
        #expect(flags.count > 25, "the dump lists run's flags: \(flags.keys.sorted())")
        for (name, kind) in flags.sorted(by: { $0.key < $1.key }) {
            #expect(settings[name] == kind, "--\(name) (\(kind)) is a setting of the same kind; the file has \(settings[name] ?? "none")")
        }
        for name in settings.keys.sorted() {
            #expect(flags[name] != nil, "the setting '\(name)' is a flag of run")
        }
        for name in ConfigurationSettings.restartOnly.sorted() {
            #expect(settings[name] != nil, "restart-only '\(name)' is a setting")
        }
        let shipped = try String(contentsOf: Self.repository.appendingPathComponent("systemd/orientd.conf"), encoding: .utf8)
        let shown = Set(
            shipped.split(separator: "\n").filter { $0.hasPrefix("#") && $0.contains(" = ") }
                .map { String($0.dropFirst().prefix { $0 != " " }) })
        for name in settings.keys.sorted() {
            #expect(shown.contains(name), "systemd/orientd.conf shows '\(name)' as a commented example")
        }
        // The classifier's values it shows are the defaults, read by run's own options.
        let classifierNames = Set(ClassifierParameter.all.map(\.name))
        let shownClassifier = shipped.split(separator: "\n").filter { $0.hasPrefix("#") && $0.contains(" = ") }
            .map { $0.dropFirst().split(separator: "=").map { String($0.trimmingBlanks) } }
            .filter { classifierNames.contains($0[0]) }
        #expect(Set(shownClassifier.map { $0[0] }) == classifierNames, "every parameter of the table: \(shownClassifier)")
        let parsed = try ClassifierOptions.parse(shownClassifier.flatMap { ["--\($0[0])", $0[1]] })
        #expect(parsed.parameters == ClassifierParameters(), "orientd.conf shows the defaults")
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
