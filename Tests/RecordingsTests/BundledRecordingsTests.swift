import Foundation
import OrientdCore
import OrientdIO
import Testing

/// The repository's Recordings/ folder, found from this file's place in the tree.
let recordingsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Recordings")

let bundledRecordings: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: recordingsDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".csv") }.sorted()
}()

@Suite("Bundled recordings")
struct BundledRecordingsTests {
    /// Plays one recording with default parameters, the header's matrix and natural
    /// orientation, as `orientd evaluate` does.
    func judge(_ name: String) throws -> (LabelEvaluator.Result?, [RecordingIssue], RecordingHeader?) {
        let reader = try RecordingReader(path: recordingsDirectory.appendingPathComponent(name).path)
        defer { reader.close() }
        var warnings: [RecordingIssue] = []
        var seenHeader: RecordingHeader?
        let result = try LabelledReplay.run(reader) { header, matrix, _ in
            seenHeader = header
            let natural = header[RecordingHeader.Key.natural].flatMap(NaturalOrientation.init(rawValue:)) ?? .portrait
            return OrientationPipeline(mountMatrix: matrix ?? .identity, natural: natural)
        } warning: { warnings.append($0) }
        return (result, warnings, seenHeader)
    }

    @Test("every labelled stretch is reached within the bound, with zero spurious changes", arguments: bundledRecordings)
    func labelsHold(name: String) throws {
        let (result, warnings, header) = try judge(name)
        #expect(warnings.isEmpty, "\(warnings)")
        let verdict = try #require(result, "\(name) has no expect column")
        #expect(!verdict.stretches.isEmpty, "\(name) has no labelled stretch")
        for violation in verdict.violations {
            Issue.record("\(name): \(violation)")
        }
        let bound = LabelEvaluator.defaultLatencyBound(rate: header?.rate)
        #expect((verdict.worstLatency ?? .infinity) <= bound)
    }

    @Test("there are at least a dozen, each says what it is and how it was made")
    func catalogue() throws {
        #expect(bundledRecordings.count >= 12, "\(bundledRecordings)")
        let readme = try String(contentsOf: recordingsDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        for name in bundledRecordings {
            let (_, _, header) = try judge(name)
            #expect(header?[RecordingHeader.Key.description]?.isEmpty == false, "\(name) lacks a description")
            #expect(header?["generator"] != nil || header?["source"] != nil, "\(name) does not say how it was made")
            #expect(readme.contains(name), "Recordings/README.md does not describe \(name)")
        }
    }
}
