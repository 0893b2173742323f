import Testing
@testable import OrientdCore

@Suite("Label evaluator")
struct LabelEvaluatorTests {
    typealias D = DeviceOrientation

    /// Samples at 10 Hz: (label, pose) pairs.
    func evaluate(_ rows: [(D?, D)], bound: Double = 0.3) -> LabelEvaluator.Result {
        var e = LabelEvaluator(latencyBound: bound)
        for (i, row) in rows.enumerated() { e.observe(time: Double(i) / 10, expect: row.0, pose: row.1) }
        return e.result()
    }

    @Test("a clean rotation passes with its latency measured")
    func passes() throws {
        let rows: [(D?, D)] = [
            (.portrait, .unknown), (.portrait, .portrait), (.portrait, .portrait), (nil, .portrait), (nil, .portrait),
            (.landscapeLeft, .portrait), (.landscapeLeft, .portrait), (.landscapeLeft, .landscapeLeft),
            (.landscapeLeft, .landscapeLeft),
        ]
        let r = evaluate(rows)
        #expect(r.passed, "\(r.violations)")
        #expect(r.stretches.count == 2)
        #expect(try abs(#require(r.stretches[1].latency) - 0.2) < 1e-9)
        #expect(r.changes == 2)
    }

    @Test("too slow is late; never is missed")
    func lateAndMissed() {
        let late = evaluate([(.portrait, .unknown), (.portrait, .unknown), (.portrait, .unknown), (.portrait, .unknown), (.portrait, .portrait)])
        #expect(late.violations.map(\.kind) == [.late])
        let missed = evaluate([(.faceUp, .unknown), (.faceUp, .unknown)])
        #expect(missed.violations.map(\.kind) == [.missed])
    }

    @Test("a flap inside a stretch and a flash through a wrong pose are spurious")
    func spurious() {
        let flap = evaluate([(.portrait, .portrait), (.portrait, .landscapeLeft), (.portrait, .portrait)])
        #expect(flap.violations.map(\.kind).contains(.spurious))
        #expect(flap.violations.map(\.kind).contains(.unstable))
        let flash = evaluate([(.faceUp, .faceUp), (nil, .landscapeRight), (nil, .portrait), (.portrait, .portrait)])
        #expect(flash.violations.map(\.kind) == [.spurious])
        #expect(flash.violations.first?.message.contains("face-up → landscape-right") == true)
        let earlyOk = evaluate([(.faceUp, .faceUp), (nil, .portrait), (.portrait, .portrait)])
        #expect(earlyOk.passed, "changing to the next label while moving is fine")
    }
}
