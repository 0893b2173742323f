import OrientdCore
import OrientdEvaluation
import Testing

@testable import OrientdSimulation

/// The classifier against sustained vibration across the range real devices meet, from
/// the physical model: a phone's motor (150–250 Hz) ringing on the same board, seen by
/// sensors sampling at 50–400 Hz with their averaging filter or without it (aliased),
/// and an engine under a car mount (20–60 Hz). Each case turns the device to landscape
/// and back while it vibrates; every turn must be reported within the latency bound,
/// as on a still table. The bundled recordings hold two of these cases; this is the grid.
@Suite("Sustained vibration, every frequency and rate")
struct VibrationGridTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var frequency: Double
        var acceleration: Double
        var rate: Double
        var averaging: Bool
        var testDescription: String {
            "\(Int(frequency)) Hz ±\(Int(acceleration)) m/s² at \(Int(rate)) Hz, \(averaging ? "averaged" : "not averaged")"
        }
    }

    /// Motor frequencies are kept off exact multiples of the sampling rates: at 200 Hz
    /// sampled at 50 Hz every reading meets the motor at the same phase, which is a fixed
    /// error in the reading that no classifier can tell from gravity.
    static let cases: [Case] =
        [155.0, 205, 245].flatMap { f in
            [50.0, 100, 200, 400].flatMap { rate in
                [true, false].map { Case(frequency: f, acceleration: 4, rate: rate, averaging: $0) }
            }
        }
        + [20.0, 40, 60].flatMap { f in
            [50.0, 100].map { Case(frequency: f, acceleration: 6, rate: $0, averaging: true) }
        }

    @Test("turns are followed while the device vibrates", arguments: cases)
    func followed(_ c: Case) throws {
        let buzz = "buzz accel=\(c.acceleration) freq=\(c.frequency) pattern=continuous"
        let recording = try render(
            """
            description: vibration grid
            rate: \(c.rate)
            filter: \(c.averaging ? "average" : "none")
            start portrait tilt 20
            hold 3s \(buzz)
            rotate landscape-left 0.8s buzz
            hold 4s buzz
            rotate portrait 0.8s buzz
            hold 4s buzz
            """)
        var classifier = OrientationClassifier()
        var evaluator = LabelEvaluator(latencyBound: LabelEvaluator.defaultLatencyBound(rate: c.rate))
        for row in recording.rows {
            _ = classifier.update(time: row.time, acceleration: row.raw)
            evaluator.observe(time: row.time, expect: PoseLabel(word: Substring(row.expect)), pose: classifier.orientation)
        }
        let result = evaluator.result()
        #expect(result.stretches.count == 3)
        #expect(result.passed, "\(result.violations)")
    }

    @Test("without the vibration filter, the aliased motor defeats the classifier")
    func neededWithoutFilter() throws {
        let recording = try render(
            """
            description: vibration grid
            rate: 100
            filter: none
            start portrait tilt 20
            hold 3s buzz accel=4 freq=155 pattern=continuous
            """)
        var p = ClassifierParameters()
        p.vibrationFilter = 0
        var classifier = OrientationClassifier(parameters: p)
        for row in recording.rows { _ = classifier.update(time: row.time, acceleration: row.raw) }
        #expect(classifier.orientation == .unknown)
    }
}
