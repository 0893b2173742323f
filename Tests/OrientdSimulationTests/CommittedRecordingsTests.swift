import Foundation
import OrientdCore
import Testing

@testable import OrientdSimulation

/// The labelled recordings in Recordings/ and the scenarios they come from.
///
/// `ORIENTD_REGENERATE=1 swift test --filter OrientdSimulationTests` rewrites every
/// Recordings/NAME.csv from Recordings/scenarios/NAME.scenario with seed 1, as
/// `orientd-lab simulate Recordings/scenarios/NAME.scenario --seed 1` run from the
/// repository's root would. Without the variable the recordings are only checked.
@Suite(.serialized)
struct CommittedRecordingsTests {
    static let regenerate = ProcessInfo.processInfo.environment["ORIENTD_REGENERATE"] == "1"

    @Test(.enabled(if: regenerate, "set ORIENTD_REGENERATE=1 to rewrite Recordings/*.csv"))
    func regenerateRecordings() throws {
        for name in try Repository.scenarioNames() {
            let bytes = Simulator(scenario: try Repository.scenario(named: name), seed: 1).render()
            try Data(bytes).write(to: Repository.recordings.appendingPathComponent("\(name).csv"))
        }
    }

    @Test func everyRecordingIsExactlyWhatItsScenarioGenerates() throws {
        let names = try Repository.scenarioNames()
        #expect(names.count >= 14)
        for name in names {
            let url = Repository.recordings.appendingPathComponent("\(name).csv")
            let committed = try [UInt8](Data(contentsOf: url))
            let generated = Simulator(scenario: try Repository.scenario(named: name), seed: 1).render()
            // Compare by line, so a difference names the place instead of dumping bytes.
            if committed != generated {
                let a = String(decoding: committed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let b = String(decoding: generated, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                Issue.record(
                    "Recordings/\(name).csv:\(line + 1) differs from its scenario's output (committed '\(line < a.count ? a[line] : "<end>")', generated '\(line < b.count ? b[line] : "<end>")'); regenerate with `make recordings`"
                )
            }
        }
    }

    @Test func everyRecordingHasAScenario() throws {
        let names = Set(try Repository.scenarioNames())
        let recordings = try FileManager.default.contentsOfDirectory(atPath: Repository.recordings.path).filter { $0.hasSuffix(".csv") }
        for file in recordings {
            #expect(names.contains(String(file.dropLast(4))), "Recordings/\(file) has no scenario in Recordings/scenarios")
        }
    }

    @Test func recordingsAreDescribedAndSayHowToRegenerateThem() throws {
        for name in try Repository.scenarioNames() {
            let scenario = try Repository.scenario(named: name)
            #expect(scenario.name == name)
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name) is not kebab-case")
            let recording = ReadRecording(try [UInt8](Data(contentsOf: Repository.recordings.appendingPathComponent("\(name).csv"))))
            #expect(recording.headerKeys.first == "rate-hz")
            #expect(!(recording.header["description"] ?? "").isEmpty, "\(name) has no description")
            #expect(recording.header["generator"] == "orientd-lab simulate Recordings/scenarios/\(name).scenario --seed 1")
            #expect(recording.columns == "time,x,y,z,expect")
            #expect(scenario.duration >= 5 && scenario.duration <= 40, "\(name) lasts \(scenario.duration) s")
            // Each recording shows at least one labelled pose, and times never go back.
            #expect(recording.rows.contains { $0.expect != "-" })
            #expect(zip(recording.rows, recording.rows.dropFirst()).allSatisfy { $0.time <= $1.time })
        }
    }

    /// The parser refuses dishonest labels; this checks, sample by sample, that what is
    /// written is what the parser allowed: each label plausible for the attitude at that
    /// instant.
    @Test func everyLabelIsHonestAtItsInstant() throws {
        for name in try Repository.scenarioNames() {
            let simulator = Simulator(scenario: try Repository.scenario(named: name), seed: 1)
            let recording = ReadRecording(try [UInt8](Data(contentsOf: Repository.recordings.appendingPathComponent("\(name).csv"))))
            // `stable` names no pose, so there is nothing to be honest about.
            for row in recording.rows where row.expect != "-" && row.expect != "stable" {
                let segment = simulator.scenario.segments[simulator.segmentIndex(at: row.time)]
                let (roll, tilt) = Attitude.rollAndTilt(of: segment.attitude(at: row.time))
                let label = try #require(DeviceOrientation(rawValue: row.expect))
                #expect(
                    LabelRules.isPlausible(label, roll: roll, tilt: tilt),
                    "\(name) at \(row.time) s: \(label) at roll \(roll), tilt \(tilt)")
                #expect(simulator.label(at: row.time) == .pose(label), "\(name) at \(row.time) s")
            }
        }
    }

    @Test func recordingsStaySmall() throws {
        var total = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.recordings.path) where file.hasSuffix(".csv") {
            total +=
                try FileManager.default.attributesOfItem(atPath: Repository.recordings.appendingPathComponent(file).path)[.size] as? Int
                ?? 0
        }
        #expect(total < 8_000_000, "Recordings/ holds \(total) bytes of CSV")
    }

    @Test func theTwoInOneRecordingNeedsItsMountMatrix() throws {
        let recording = ReadRecording(
            try [UInt8](Data(contentsOf: Repository.recordings.appendingPathComponent("two-in-one-tablet-rotated.csv"))))
        #expect(recording.header["mount-matrix"] == "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(recording.header["natural"] == "landscape")
        // Raw, portrait reads along x; corrected by the matrix it reads (0, −g·cos tilt, …).
        let first = recording.rows[0]
        #expect(abs(first.raw.x) > 6 && abs(first.raw.y) < 1.5)
        let corrected = recording.corrected[0]
        #expect(corrected.y < -6 && abs(corrected.x) < 1.5)
    }
}
