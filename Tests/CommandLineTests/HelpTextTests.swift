import Foundation
import OrientdTestSupport
import Testing

/// What a newcomer reads first: --help in an 80-column terminal, and a misspelt command.
@Suite("Help and mistakes at the command line")
struct HelpTextTests {
    /// Every command path, from the binary's own description of itself.
    func commandPaths() throws -> [[String]] {
        let dump = try OrientdProcess.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        func walk(_ command: [String: Any], _ path: [String]) -> [[String]] {
            let children = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
            return [path] + children.flatMap { walk($0, path + [$0["commandName"] as? String ?? "?"]) }
        }
        return walk(try #require(root["command"] as? [String: Any]), [])
    }

    /// The examples in a help text: lines of an "Examples:" block and what follows
    /// "Example: ", as they read with no wrapping at all.
    func examples(_ text: String) -> [String] {
        var found: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "Examples:" {
                inBlock = true
            } else if inBlock && (trimmed.isEmpty || !line.hasPrefix("  ")) {
                inBlock = false
            } else if inBlock {
                found.append(trimmed)
            }
            if let range = trimmed.range(of: "Example: ") { found.append(String(trimmed[range.upperBound...])) }
        }
        return found
    }

    @Test("in an 80-column terminal no example is broken across lines, so one copied from it is a whole command")
    func examplesFitEightyColumns() throws {
        let paths = try commandPaths()
        #expect(paths.count >= 12)
        for path in paths {
            let wide = try OrientdProcess.run(path + ["--help"], environment: ["COLUMNS": "1000"])
            let narrow = try OrientdProcess.run(path + ["--help"], environment: ["COLUMNS": "80"])
            let lines = narrow.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let found = examples(wide.stdout)
            #expect(!found.isEmpty, "orientd \(path.joined(separator: " ")) --help has no example")
            for example in found {
                #expect(
                    lines.contains { $0 == example || $0.hasSuffix("Example: " + example) },
                    "orientd \(path.joined(separator: " ")) --help: '\(example)' is broken at 80 columns")
            }
        }
    }

    @Test("a misspelt command is named with the nearest command, not blamed on run")
    func misspeltCommand() throws {
        let result = try OrientdProcess.run(["lsit"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown command 'lsit'; did you mean 'list'?"))
        #expect(!result.stderr.contains("orientd run"))
        let far = try OrientdProcess.run(["rotate"])
        #expect(far.status == 64)
        #expect(far.stderr.contains("unknown command 'rotate'\n"))
        // The laboratory's commands are not installed: the user is told where they are.
        let lab = try OrientdProcess.run(["evaluate", "Recordings/lying-in-bed.csv"])
        #expect(lab.status == 64)
        #expect(
            lab.stderr.contains(
                "unknown command 'evaluate': it is the laboratory's, not installed; from a checkout: swift run orientd-lab evaluate"))
        // Options still go to run, the default command.
        #expect(try OrientdProcess.run(["--no-such-flag"]).stderr.contains("Unknown option '--no-such-flag'"))
    }
}
