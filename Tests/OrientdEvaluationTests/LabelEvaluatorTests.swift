import OrientdCore
import Testing

@testable import OrientdEvaluation

@Suite("Label evaluator")
struct LabelEvaluatorTests {
    typealias D = DeviceOrientation

    /// Samples at 10 Hz: (label, pose) pairs.
    func evaluate(_ rows: [(D?, D)], bound: Double = 0.3) -> LabelEvaluator.Result {
        var e = LabelEvaluator(latencyBound: bound)
        for (i, row) in rows.enumerated() { e.observe(time: Double(i) / 10, expect: row.0.map(PoseLabel.pose), pose: row.1) }
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
        let late = evaluate([
            (.portrait, .unknown), (.portrait, .unknown), (.portrait, .unknown), (.portrait, .unknown), (.portrait, .portrait),
        ])
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

@Suite("Label evaluator: stable stretches, the screen, and the figures")
struct StableLabelTests {
    typealias D = DeviceOrientation

    /// Samples at 10 Hz: (label, pose) pairs.
    func evaluate(_ rows: [(PoseLabel?, D)], bound: Double = 0.3) -> LabelEvaluator.Result {
        var e = LabelEvaluator(latencyBound: bound)
        for (i, row) in rows.enumerated() { e.observe(time: Double(i) / 10, expect: row.0, pose: row.1) }
        return e.result()
    }

    @Test("a stable stretch takes any pose, settles within the bound, then must not change")
    func stable() {
        let held = evaluate([(.stable, .portrait), (.stable, .portrait), (.stable, .portrait)])
        #expect(held.passed, "\(held.violations)")
        #expect(held.figures.holds == 0, "a stable stretch is no hold: nothing to reach")
        #expect(held.figures.heldSeconds > 0)

        // Settling into face-up 0.2 s in is fine; a flap 0.5 s in is not, and each one counts.
        let settling = evaluate(
            [(.pose(.portrait), .portrait), (.stable, .portrait), (.stable, .portrait), (.stable, .faceUp)]
                + Array(repeating: (.stable, .faceUp), count: 5))
        #expect(settling.passed, "\(settling.violations)")
        let flapping = evaluate(
            Array(repeating: (PoseLabel.stable, D.faceUp), count: 5)
                + [(.stable, .portrait), (.stable, .faceUp), (.stable, .portrait), (.stable, .portrait)])
        #expect(flapping.violations.map(\.kind) == [.unstable], "one violation for the stretch")
        #expect(flapping.figures.spuriousChanges == 3, "but every change is counted")
    }

    @Test("moving towards a stable stretch, any change is allowed")
    func towardsStable() {
        let r = evaluate([(.pose(.portrait), .portrait), (nil, .landscapeLeft), (nil, .faceUp), (.stable, .faceUp), (.stable, .faceUp)])
        #expect(r.passed, "\(r.violations)")
        let intoHold = evaluate([(.pose(.portrait), .portrait), (nil, .landscapeLeft), (.pose(.faceUp), .faceUp)])
        #expect(intoHold.violations.map(\.kind) == [.spurious], "towards a hold, only its pose is allowed")
    }

    @Test("the screen: upright labels ask for their rotation, face-up and stable for no change")
    func screen() {
        var e = ScreenEvaluator(latencyBound: 0.3)
        let rows: [(PoseLabel?, Rotation?)] = [
            (.pose(.portrait), nil), (.pose(.portrait), .degrees0), (.pose(.faceUp), .degrees0), (.pose(.faceUp), .degrees0),
            (.pose(.faceUp), .degrees0), (.pose(.faceUp), .degrees0), (.pose(.faceUp), .degrees90), (nil, .degrees90),
            (.pose(.landscapeLeft), .degrees90),
        ]
        for (i, row) in rows.enumerated() { e.observe(time: Double(i) / 10, expect: row.0, screen: row.1) }
        let r = e.result()
        #expect(r.violations.map(\.kind) == [.unstable], "\(r.violations)")
        #expect(r.violations.first?.message.contains("0° → 90°") == true, "\(r.violations)")
        #expect(r.figures.holds == 2)
        #expect(r.figures.spuriousChanges == 1)
        #expect(r.figures.missed == 0)
    }

    @Test("figures: latencies, accuracy, changes per hour of held time, and their sum")
    func figures() throws {
        // Portrait reached 0.2 s late; landscape-left missed; a flap in a reached hold.
        let r = evaluate([
            (.pose(.portrait), .unknown), (.pose(.portrait), .unknown), (.pose(.portrait), .portrait), (.pose(.portrait), .portrait),
            (.pose(.portrait), .faceUp), (.pose(.portrait), .portrait),
            (.pose(.landscapeLeft), .portrait), (.pose(.landscapeLeft), .portrait),
        ])
        let f = r.figures
        #expect(f.holds == 2)
        #expect(f.missed == 1)
        #expect(try abs(#require(f.medianLatency) - 0.2) < 1e-9)
        #expect(f.holdSamples == 8 && f.matchingSamples == 3)
        #expect(f.spuriousChanges == 2, "to face-up and back")
        #expect(abs(f.heldSeconds - 0.6) < 1e-9, "0.5 s of portrait and 0.1 s of landscape-left")
        let perHour: Double = 2 / (0.6 / 3600)
        #expect(try abs(#require(f.spuriousPerHour) - perHour) < 1e-6)
        let twice = f + f
        #expect(twice.holds == 4 && twice.latencies.count == 2 && twice.heldSeconds == f.heldSeconds * 2)
        #expect(EvaluationFigures().accuracy == nil && EvaluationFigures().p95Latency == nil)
        var spread = EvaluationFigures()
        spread.latencies = (1...100).map { Double($0) }
        #expect(spread.p95Latency == 95 && spread.medianLatency == 50)
    }

    @Test("motion: changes while the label is '-', but the one that ends a turn within the bound before its hold")
    func motion() throws {
        // 0.1 s a row. Moving from 0.2 s to 1.0 s: a flash to face-up at 0.3 s and back at
        // 0.5 s, then landscape-left at 0.8 s, 0.3 s before its hold at 1.1 s: the turn's.
        let rows: [(PoseLabel?, D)] = [
            (.pose(.portrait), .portrait), (.pose(.portrait), .portrait),
            (nil, .portrait), (nil, .faceUp), (nil, .faceUp), (nil, .portrait), (nil, .portrait), (nil, .portrait),
            (nil, .landscapeLeft), (nil, .landscapeLeft), (nil, .landscapeLeft),
            (.pose(.landscapeLeft), .landscapeLeft), (.pose(.landscapeLeft), .landscapeLeft),
        ]
        let f = evaluate(rows).figures
        #expect(abs(f.motionSeconds - 0.8) < 1e-9, "2.0–1.0 s")
        #expect(f.motionChanges == 2, "to face-up and back; the turn to landscape-left is its hold's")
        let perMinute = try #require(f.motionChangesPerMinute)
        #expect(abs(perMinute - 150) < 1e-6)
        // The same turn 0.4 s ahead of its hold is a change while moving, too.
        let early = evaluate(Array(rows[0..<7]) + [(nil, .landscapeLeft)] + Array(rows[8...])).figures
        #expect(early.motionChanges == 3)
        #expect(EvaluationFigures().motionChangesPerMinute == nil)
        #expect((f + f).motionChanges == 4 && (f + f).motionSeconds == f.motionSeconds * 2)
    }

    @Test("targets: each figure over its limit is named with its value; none without figures")
    func targets() {
        var device = EvaluationFigures()
        device.holds = 10
        device.latencies = Array(repeating: 0.1, count: 10)
        device.heldSeconds = 3600
        var screen = device
        #expect(EvaluationTargets().crossings(device: device, screen: screen).isEmpty)
        #expect(EvaluationTargets().crossings(device: EvaluationFigures(), screen: EvaluationFigures()).isEmpty)
        device.missed = 1
        device.spuriousChanges = 6
        screen.latencies = Array(repeating: 0.26, count: 10)
        screen.spuriousChanges = 2
        screen.motionSeconds = 60
        screen.motionChanges = 16
        #expect(
            EvaluationTargets().crossings(device: device, screen: screen) == [
                "pose: 1 of 10 holds missed, at most 0",
                "screen: p95 latency 260 ms, at most 250 ms",
                "pose: 6 spurious changes per hour held, at most 5",
                "screen: 2 spurious changes per hour held, at most 1",
                "screen: 16 changes per minute of motion, at most 15",
            ])
    }
}
