import Foundation
import OrientdCore

@testable import OrientdSimulation

/// A recording read back by a deliberately small reader of its own, so that these tests
/// check the bytes the simulator writes, not another reader's interpretation of them.
struct ReadRecording {
    struct Row {
        var time: Double
        var raw: Vector3
        var expect: String
    }

    var header: [String: String] = [:]
    var headerKeys: [String] = []
    var columns = ""
    var rows: [Row] = []

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# ") {
                let body = line.dropFirst(2)
                if let colon = body.firstIndex(of: ":") {
                    let key = String(body[..<colon])
                    header[key] = String(body[body.index(after: colon)...].dropFirst())
                    headerKeys.append(key)
                }
            } else if line.hasPrefix("time") {
                columns = String(line)
            } else {
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                rows.append(
                    Row(
                        time: Double(f[0])!,
                        raw: Vector3(Double(f[1])!, Double(f[2])!, Double(f[3])!),
                        expect: String(f[4])))
            }
        }
    }

    /// Readings after the mount matrix, as a reader computes them: corrected = M · raw.
    var corrected: [Vector3] {
        let m = header["mount-matrix"].map { try! MountMatrix(parsing: $0) } ?? .identity
        return rows.map { m.apply($0.raw) }
    }
}

func makeScenario(_ text: String, source: String = "test.scenario") throws -> Scenario {
    try Scenario(parsing: text, source: source)
}

func render(_ text: String, seed: UInt64 = 1) throws -> ReadRecording {
    ReadRecording(Simulator(scenario: try makeScenario(text), seed: seed).render())
}

/// The parse error of a scenario that must not parse, or nil if it parses.
func parseError(_ text: String, source: String = "bad.scenario") -> ScenarioError? {
    do {
        _ = try Scenario(parsing: text, source: source)
        return nil
    } catch {
        return error
    }
}

func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

func standardDeviation(_ values: [Double]) -> Double {
    let m = mean(values)
    return (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)).squareRoot()
}

/// |DFT| of evenly spaced values at one frequency.
func amplitude(of values: [Double], rate: Double, at frequency: Double) -> Double {
    var re = 0.0
    var im = 0.0
    for (n, v) in values.enumerated() {
        let a = 2 * Double.pi * frequency * Double(n) / rate
        re += v * cos(a)
        im += v * sin(a)
    }
    return 2 * (re * re + im * im).squareRoot() / Double(values.count)
}

func isClose(_ a: Vector3, _ b: Vector3, within tolerance: Double) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
}

/// The repository's folders, found from this file's place in it.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let recordings = root.appendingPathComponent("Recordings")
    static let scenarios = recordings.appendingPathComponent("scenarios")

    /// Base names of the scenarios in Recordings/scenarios, sorted.
    static func scenarioNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenarios.path)
            .filter { $0.hasSuffix(".scenario") }
            .map { String($0.dropLast(".scenario".count)) }
            .sorted()
    }

    /// The scenario as `orientd-lab simulate Recordings/scenarios/NAME.scenario --seed 1`
    /// reads it when run from the repository's root.
    static func scenario(named name: String) throws -> Scenario {
        let text = try String(contentsOf: scenarios.appendingPathComponent("\(name).scenario"), encoding: .utf8)
        return try Scenario(parsing: text, source: "Recordings/scenarios/\(name).scenario")
    }
}

let g = standardGravity
