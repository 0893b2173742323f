import Foundation
import OrientdCore
import OrientdOptions
import OrientdTestSupport
import Testing

@testable import orientd

/// Every place a classifier parameter is named is the table's (`ClassifierParameter.all`)
/// or is checked against it here; a failure names the place that drifted.
@Suite("Every place names the classifier's parameters as the table does")
struct ParameterTableTests {
    @Test("each entry is a flag that sets exactly its parameter, with the table's help", arguments: ClassifierParameter.all.map(\.name))
    func flag(name: String) throws {
        let parameter = try #require(ClassifierParameter.named(name))
        let value = parameter.sweep.first { $0 != parameter.defaultValue } ?? parameter.defaultValue + 1
        let options = try ClassifierOptions.parse(["--\(name)", JSONLineWriter.number(value, decimals: 6)])
        var expected = ClassifierParameters()
        parameter.set(value, in: &expected)
        #expect(options.parameters == expected, "Sources/OrientdOptions/ClassifierOptions.swift: --\(name) does not set \(name)")
        #expect(ConfigurationSettings.keys[name] == .option, "ConfigurationSettings.keys lacks \(name)")
    }

    @Test("replay's help shows each parameter with its default and unit")
    func help() throws {
        let help = try OrientdProcess.run(["replay", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for parameter in ClassifierParameter.all {
            #expect(help.contains("--\(parameter.name) <"), "\(parameter.name)")
            #expect(help.contains("(default: \(parameter.defaultText))"), "\(parameter.name): (default: \(parameter.defaultText))")
        }
    }

    @Test("docs/classifier.md's table of parameters has each one, with the table's default")
    func documented() throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("docs/classifier.md"), encoding: .utf8)
        let section = try #require(text.range(of: "### Parameters"), "docs/classifier.md has no \"Parameters\" section")
        let rows = text[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
        var documented: [String: String] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, documented[cells[0]] == nil else { continue }
            documented[cells[0]] = cells[1]
        }
        for parameter in ClassifierParameter.all {
            let cell = documented["`\(parameter.name)`"]
            #expect(
                cell == parameter.defaultText,
                "docs/classifier.md, \"Parameters\": the row of \(parameter.name) says \(cell ?? "nothing"); the table \(parameter.defaultText)"
            )
        }
    }

    @Test("orientd config parameters lists the table; the scripts read their parameters from it")
    func scripts() throws {
        let listed = try OrientdProcess.run(["config", "parameters", "--json"])
        #expect(listed.status == 0)
        let names = listed.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String
        }
        #expect(names == ClassifierParameter.all.map(\.name))
        let text = try OrientdProcess.run(["config", "parameters"])
        #expect(text.lines.count == ClassifierParameter.all.count)
        for script in ["scripts/sweep-parameters", "scripts/evaluate-real"] {
            let source = try String(contentsOf: Repository.root.appendingPathComponent(script), encoding: .utf8)
            #expect(source.contains("config parameters --json"), "\(script) reads the table")
            for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                for parameter in ClassifierParameter.all where line.contains("--\(parameter.name)") || line.contains("[\(parameter.name)]")
                {
                    Issue.record("\(script):\(number + 1) names \(parameter.name) itself: read it from orientd config parameters")
                }
            }
        }
    }
}
