import Foundation
import OrientdCore
import OrientdEvaluation
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
    /// `watching`: as on a sensor that watches for motion at rest (`--watching-sensor`).
    func judge(_ name: String, watching: Bool = false) throws -> (LabelEvaluator.Result?, [InputIssue], RecordingHeader?) {
        let reader = try RecordingReader(path: recordingsDirectory.appendingPathComponent(name).path)
        defer { reader.close() }
        var warnings: [InputIssue] = []
        var seenHeader: RecordingHeader?
        let result = try LabelledReplay.run(reader, watchingSensor: watching) { header, matrix, _ in
            seenHeader = header
            let natural = header[RecordingHeader.Key.natural].flatMap(NaturalOrientation.init(rawValue:)) ?? .portrait
            return OrientationPipeline(mountMatrix: matrix ?? .identity, natural: natural)
        } warning: {
            warnings.append($0)
        }
        return (result?.device, warnings, seenHeader)
    }

    @Test("every labelled stretch is reached within the bound, with zero spurious changes", arguments: bundledRecordings)
    func labelsHold(name: String) throws {
        try expectLabelsHold(name, watching: false)
    }

    /// A sensor that watches sends only what moved past its sensitivity: the slow turns
    /// (slow-rotation-through-diagonal, steep-tilt-reading) must add up past it.
    @Test(
        "as on a sensor that watches for motion at rest, too: every stretch reached within the bound, none spurious",
        arguments: bundledRecordings)
    func labelsHoldWatching(name: String) throws {
        try expectLabelsHold(name, watching: true)
    }

    func expectLabelsHold(_ name: String, watching: Bool) throws {
        let (result, warnings, header) = try judge(name, watching: watching)
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

@Suite("The recordings can catch a bad classifier")
struct DiscriminationTests {
    /// A classifier stripped of everything that stops flapping: no filter, no magnitude or
    /// disturbance gate, no hold, no hysteresis, one reading decides, no tilt dead band.
    /// It is roughly what rot8 and iio-sensor-proxy do (docs/classifier.md, "Against the classifiers in the field").
    static let naive = ClassifierParameters.naive

    @Test(
        "a naive classifier fails where users complain of flapping; orientd's passes",
        arguments: [
            "riding-a-bus.csv", "shaking.csv", "slow-rotation-through-diagonal.csv",
            "on-table-pushed-and-carried.csv", "tapping-while-reading.csv",
        ])
    func naiveFails(name: String) throws {
        let naive = try Self.verdict(name, Self.naive)
        #expect(!naive.passed, "\(name) does not catch a classifier that flaps")
        #expect(naive.violations.contains { $0.kind == .spurious })
        #expect(try Self.verdict(name, ClassifierParameters()).passed)
    }

    /// The rule each recording of real-world trouble was made for, turned back to what it
    /// was before: the vibration filter off, the face-up/face-down angles of 75°/65°, no
    /// wait after lying flat, and no longer hold into face-up short of face-sure-tilt.
    enum Regression: String, CaseIterable, Sendable {
        case noVibrationFilter, faceAnglesOf75And65, noFlatSettle, noFaceHold

        var parameters: ClassifierParameters {
            var p = ClassifierParameters()
            switch self {
            case .noVibrationFilter:
                p.vibrationFilter = 0
            case .faceAnglesOf75And65:
                p.faceEnterTilt = 75
                p.faceExitTilt = 65
            case .noFlatSettle:
                p.flatSettleTime = 0
            case .noFaceHold:
                p.faceHoldTime = 0
            }
            return p
        }
    }

    @Test(
        "each recording of vibration, a steep hand-held tilt or handling off a table fails without the rule made for it",
        arguments: [
            ("on-a-vibrating-table.csv", Regression.noVibrationFilter),
            ("car-mount-rough-engine.csv", .noVibrationFilter),
            ("held-at-a-steep-tilt.csv", .faceAnglesOf75And65),
            ("lifted-and-turned-in-the-hand.csv", .noFlatSettle),
            ("walked-reading-steeply.csv", .noFaceHold),
        ])
    func ruleIsNeeded(name: String, without rule: Regression) throws {
        let without = try Self.verdict(name, rule.parameters)
        #expect(!without.passed, "\(name) passes without the rule: it cannot catch its loss")
        #expect(try Self.verdict(name, ClassifierParameters()).passed)
    }

    static func verdict(_ name: String, _ parameters: ClassifierParameters) throws -> LabelEvaluator.Result {
        let reader = try RecordingReader(path: recordingsDirectory.appendingPathComponent(name).path)
        defer { reader.close() }
        let result = try LabelledReplay.run(reader) { _, matrix, _ in
            OrientationPipeline(mountMatrix: matrix ?? .identity, parameters: parameters)
        } warning: { _ in
        }
        return try #require(result?.device)
    }
}
