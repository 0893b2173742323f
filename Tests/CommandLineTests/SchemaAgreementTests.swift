import Foundation
import OrientdTestSupport
import Testing

/// Debian's python3 with its jsonschema module, or the loud reason the suite is skipped.
enum PythonJSONSchema {
    static let python = "/usr/bin/python3"
    static let skipReason: String = {
        let probe = try? OrientdProcess.run(["-c", "import jsonschema"], executable: URL(fileURLWithPath: python))
        return MissingCounterpart(missing: probe?.status == 0 ? [] : ["python3-jsonschema (\(python) -c 'import jsonschema' failed)"])
            .skipReason(
                suite: "SchemaAgreementTests (docs/events.schema.json under Python's jsonschema)",
                why: "scripts/install-dependencies --unit (scripts/test) installs it.")
    }()
}

/// docs/events.schema.json read two ways: by the suite's own validator (`EventSchema`,
/// which checks every line orientd prints in the tests) and by Python's jsonschema, the
/// validator consumers reach for (Debian's python3-jsonschema, Draft 2020-12). Both must
/// accept the schema, accept every real line and every example in the documentation,
/// and reject the same broken lines: otherwise a line the suite passes could fail a
/// consumer's check, or the other way round.
@Suite(.enabled(if: PythonJSONSchema.skipReason.isEmpty, "\(PythonJSONSchema.skipReason)"))
struct SchemaAgreementTests {
    static let python = PythonJSONSchema.python
    static let repository = Repository.root

    /// Python's verdict on each line: true when jsonschema finds no error. The schema is
    /// checked against the 2020-12 meta-schema first.
    static func pythonVerdicts(_ lines: [String]) throws -> [Bool] {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let path = try scratch.write("lines.ndjson", lines.joined(separator: "\n") + "\n")
        let program = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            for line in open(sys.argv[2]):
                print(1 if validator.is_valid(json.loads(line)) else 0)
            """
        let result = try OrientdProcess.run(["-c", program, EventSchema.path, path], executable: URL(fileURLWithPath: python))
        guard result.status == 0 else { throw Failure(description: "python3 jsonschema failed (\(result.status)): \(result.stderr)") }
        return result.lines.map { $0 == "1" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func swiftVerdicts(_ lines: [String]) throws -> [Bool] {
        let schema = try EventSchema.published.get()
        return try lines.map { schema.errors(in: try JSONValue(parsing: $0)).isEmpty }
    }

    /// Lines orientd really prints: every bundled recording replayed with every command
    /// on its standard input, some refused.
    static func realLines() throws -> [String] {
        let recordings = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Recordings").path)
            .filter { $0.hasSuffix(".csv") }.sorted()
        #expect(recordings.count >= 10)
        let commands = [
            "orientation", "status", "help", "lock landscape", "lock current", "unlock", "supported portrait,landscape",
            "request portrait", "release", "accept", "mode tablet", "mode auto", "lock", "frobnicate", "{\"lock\":1}", "monitor", "quit",
        ]
        var lines: Set<String> = []
        for name in recordings {
            let result = try OrientdProcess.run(
                ["replay", "--fast", "--exec", "true", repository.appendingPathComponent("Recordings/\(name)").path],
                stdin: Data((commands.joined(separator: "\n") + "\n").utf8))
            #expect(result.status == 0, "\(name): \(result.stderr)")
            lines.formUnion(result.lines.filter { $0.hasPrefix("{") })
        }
        return lines.sorted()
    }

    /// Every JSON example line in README.md and docs/*.md that is an event or a reply.
    static func documentedLines() throws -> [String] {
        let docs = repository.appendingPathComponent("docs")
        let files =
            [repository.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.sorted().map {
                docs.appendingPathComponent($0)
            }
        return try files.flatMap { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix(#"{"event""#) || $0.hasPrefix(#"{"reply""#) }
        }
    }

    /// Broken copies of a valid line, each wrong in one way a consumer would care about.
    static func broken(_ line: String) throws -> [String] {
        guard case .object(let members) = try JSONValue(parsing: line) else { return [] }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        func encoded(_ changed: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys]), as: UTF8.self)
        }
        var out: [String] = []
        var extra = object
        extra["bogus"] = 1
        out.append(try encoded(extra))
        for (key, value) in members.sorted(by: { $0.key < $1.key }) where key != "event" && key != "reply" {
            var missing = object
            missing[key] = nil
            out.append(try encoded(missing))
            var wrong = object
            switch value {
            case .string: wrong[key] = 7
            case .bool: wrong[key] = "true"
            case .number: wrong[key] = "1"
            case .array: wrong[key] = ["sideways"]
            case .null: wrong[key] = ["sideways"]
            case .object: wrong[key] = false
            }
            out.append(try encoded(wrong))
        }
        return out
    }

    @Test("both validators accept the schema, every line orientd prints for every recording and command, and every documented example")
    func validLines() throws {
        let lines = try Self.realLines() + Self.documentedLines()
        let kinds = Set(lines.compactMap { line in line.split(separator: ",").first.map(String.init) })
        #expect(kinds.count >= 15, "kinds seen: \(kinds.sorted())")
        let swift = try Self.swiftVerdicts(lines)
        let python = try Self.pythonVerdicts(lines)
        #expect(python.count == lines.count)
        let schema = try EventSchema.published.get()
        for (i, line) in lines.enumerated() {
            let errors = try schema.errors(in: JSONValue(parsing: line))
            #expect(swift[i], "EventSchema rejects \(line): \(errors)")
            #expect(python.indices.contains(i) && python[i], "python jsonschema rejects \(line)")
        }
    }

    @Test("both validators reject the same broken lines: a field missing, of the wrong type, or not in the schema")
    func brokenLines() throws {
        // One valid line of each kind, then everything wrong with each.
        var byKind: [String: String] = [:]
        for line in try Self.realLines() + Self.documentedLines() {
            let value = try JSONValue(parsing: line)
            var kind = line.split(separator: ",").first.map(String.init) ?? line
            if case .string(let state)? = value["state"] { kind += " " + state }
            if byKind[kind] == nil { byKind[kind] = line }
        }
        let broken = try byKind.values.sorted().flatMap(Self.broken)
        #expect(broken.count > 100)
        let swift = try Self.swiftVerdicts(broken)
        let python = try Self.pythonVerdicts(broken)
        #expect(python.count == broken.count)
        var agreed = 0
        var rejectedByBoth = 0
        for (i, line) in broken.enumerated() where python.indices.contains(i) {
            #expect(swift[i] == python[i], "they disagree (EventSchema: \(swift[i]), python: \(python[i])): \(line)")
            if swift[i] == python[i] { agreed += 1 }
            if !swift[i] && !python[i] { rejectedByBoth += 1 }
        }
        // Nearly every change breaks a line; the few that do not (a nullable field given
        // null's replacement that is also allowed) must be few, or the schema is loose.
        #expect(Double(rejectedByBoth) >= 0.9 * Double(broken.count), "only \(rejectedByBoth) of \(broken.count) broken lines rejected")
        #expect(agreed == broken.count)
    }
}
