import Foundation
import OrientdCore
import OrientdEvaluation
import OrientdIO
import OrientdOptions
import OrientdTestSupport
import Testing

@testable import orientd_lab

@Suite("evaluate and replay play a recording the same way")
struct OneReplayPathTests {
    static let recordings: [String] = {
        let directory = Repository.root.appendingPathComponent("Recordings")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { directory.appendingPathComponent($0).path }
    }()

    /// What evaluate judges is what replay prints: the orientation events the service makes
    /// while evaluate plays a recording (with evaluate's own options, parsed from nothing)
    /// are, byte for byte and in order, the ones `orientd replay --fast` writes.
    @Test("each bundled recording: the events evaluate's service makes are replay's", arguments: recordings)
    func sameEvents(path: String) throws {
        let replayed = try OrientdProcess.run(["replay", "--fast", path])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let printed = replayed.stdout.split(separator: "\n").map(String.init).filter { $0.contains(#""event":"orientation""#) }
        let evaluate = try Evaluate.parse([path])
        let factory = PipelineFactory(policy: evaluate.policy, classifier: evaluate.classifier, mountMatrix: evaluate.mountMatrix)
        let reader = try RecordingReader(path: path)
        defer { reader.close() }
        var made: [String] = []
        _ = try LabelledReplay.run(reader, rate: evaluate.classifier.adaptiveRate) { header, matrix, line in
            try factory.make(header: header, headerMatrix: matrix, matrixLine: line, source: reader.displayName).pipeline
        } warning: { _ in
        } said: {
            if case .orientation(let event) = $0 { made.append(String(decoding: event.jsonLine, as: UTF8.self)) }
        }
        #expect(!printed.isEmpty)
        #expect(made.map { $0.trimmingCharacters(in: .newlines) } == printed, "\(path)")
    }
}
