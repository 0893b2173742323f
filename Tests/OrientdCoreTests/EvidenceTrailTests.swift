import Testing

@testable import OrientdCore

@Suite("Evidence trail and the explanation of an event")
struct EvidenceTrailTests {
    func evidence(
        _ time: Double, reported: DeviceOrientation = .portrait, proposed: DeviceOrientation?, since: Double = 0,
        _ holdBack: HoldBack? = nil
    ) -> ClassifierEvidence {
        ClassifierEvidence(
            time: time, reported: reported, filtered: rest(roll: 90, tilt: 20), proposed: proposed, proposedSince: since,
            holdBack: holdBack, lastDisturbance: nil, walking: false)
    }

    @Test("one delay for each stretch held back by one rule, with its last figures")
    func delays() throws {
        var trail = EvidenceTrail()
        trail.observe(evidence(1.0, proposed: .landscapeLeft, since: 1.0, .readings(have: 1, need: 2)))
        trail.observe(evidence(1.02, proposed: .landscapeLeft, since: 1.0, .hold(seconds: 0.12, reason: .usual)))
        trail.observe(evidence(1.04, proposed: .landscapeLeft, since: 1.0, .hold(seconds: 0.12, reason: .usual)))
        trail.observe(evidence(1.06, proposed: .landscapeLeft, since: 1.0, .disturbance(at: 1.05)))
        trail.observe(evidence(1.08, proposed: .landscapeLeft, since: 1.0, .disturbance(at: 1.07)))
        trail.observe(evidence(1.1, reported: .landscapeLeft, proposed: nil, since: 1.0))
        let proposal = try #require(trail.current)
        #expect(proposal.pose == .landscapeLeft && proposal.since == 1.0 && proposal.readings == 6)
        #expect(proposal.delays.map(\.holdBack.rule) == ["readings", "hold-usual", "disturbance"])
        #expect(proposal.delays[1].from == 1.02 && proposal.delays[1].until == 1.04)
        #expect(proposal.delays[2].holdBack == .disturbance(at: 1.07) && proposal.delays[2].until == 1.08)
    }

    @Test("a proposal that falls through, or another pose, starts a new story")
    func newStory() throws {
        var trail = EvidenceTrail()
        trail.observe(evidence(1.0, proposed: .landscapeLeft, since: 1.0, .readings(have: 1, need: 2)))
        trail.observe(evidence(1.02, proposed: nil, since: 1.0))
        #expect(trail.current?.pose == .portrait && trail.current?.since == 1.02)
        trail.observe(evidence(1.04, proposed: .landscapeLeft, since: 1.04, .readings(have: 1, need: 2)))
        trail.observe(evidence(1.06, proposed: .landscapeRight, since: 1.06, .readings(have: 1, need: 2)))
        #expect(trail.current?.pose == .landscapeRight && trail.current?.readings == 1)
        trail.reset()
        #expect(trail.current == nil)
    }

    func event(
        _ device: DeviceOrientation, screen: Rotation, previous: Rotation?, cause: OrientationEvent.Cause, time: Double = 5.7
    ) -> OrientationEvent {
        OrientationEvent(
            time: time, device: device, screen: screen, previousScreen: previous, natural: .portrait, locked: false, cause: cause)
    }

    @Test("a turn: from when, over how many readings, what held it back until when, and the layer")
    func turnLine() {
        var proposal = EvidenceTrail.Proposal(pose: .landscapeLeft, since: 5.48)
        proposal.readings = 12
        proposal.delays = [
            .init(holdBack: .readings(have: 1, need: 2), from: 5.48, until: 5.48),
            .init(holdBack: .hold(seconds: 0.12, reason: .usual), from: 5.5, until: 5.58),
            .init(holdBack: .disturbance(at: 5.6), from: 5.6, until: 5.68),
        ]
        let explanation = EventExplanation(
            event: event(.landscapeLeft, screen: .degrees90, previous: .degrees0, cause: .sensor), proposal: proposal,
            evidence: evidence(5.7, reported: .landscapeLeft, proposed: nil), decidedBy: .device, mode: nil)
        #expect(
            explanation.line
                == "5.7 landscape-left landscape-primary (sensor): the readings argued for landscape-left from 5.48 s (12 readings; at the end tilted 20°, turned 0° from it in the screen plane); it waited for its hold of 0.12 s (hold-time) until 5.58 s, then for the disturbance at 5.6 s to settle (settle-time) until 5.68 s; the screen turns to landscape-primary, following the device."
        )
    }

    @Test(
        "the screen: the layer that decided it, and a pose that does not turn it",
        arguments: [
            (PolicyLayer.lock, DeviceOrientation.landscapeLeft, "the screen stays portrait-primary: the rotation lock holds it"),
            (
                .supported, .portraitUpsideDown,
                "the screen stays portrait-primary: the configured set (supported) does not allow the device's pose"
            ),
            (.request, .landscapeRight, "the screen stays portrait-primary: an app's request holds it"),
            (.mode, .landscapeRight, "the screen stays portrait-primary: laptop mode holds it"),
            (.device, .faceUp, "the screen stays portrait-primary: face-up does not turn it"),
        ])
    func screenClause(layer: PolicyLayer, device: DeviceOrientation, clause: String) {
        let explanation = EventExplanation(
            event: event(device, screen: .degrees0, previous: .degrees0, cause: .sensor), proposal: nil,
            evidence: evidence(5.7, reported: device, proposed: nil), decidedBy: layer, mode: nil)
        #expect(explanation.line.hasSuffix("\(clause)."), "\(explanation.line)")
    }

    @Test("the first event: the screen starts where it is")
    func start() {
        let first = EventExplanation(
            event: event(.faceUp, screen: .degrees0, previous: nil, cause: .start, time: 0.02), proposal: nil,
            evidence: evidence(0.02, reported: .faceUp, proposed: nil), decidedBy: .device, mode: nil)
        #expect(first.line.hasSuffix("; the screen starts at portrait-primary: face-up does not turn it."), "\(first.line)")
    }

    @Test("an event that is not the classifier's says what made it")
    func otherCauses() {
        let lock = EventExplanation(
            event: event(.landscapeLeft, screen: .degrees90, previous: .degrees0, cause: .lock), proposal: nil,
            evidence: evidence(5.7, reported: .landscapeLeft, proposed: nil), decidedBy: .lock, mode: nil)
        #expect(
            lock.line
                == "5.7 landscape-left landscape-primary (lock): a rotation lock was applied; the screen turns to landscape-primary: the rotation lock holds it."
        )
        let mode = EventExplanation(
            event: event(.landscapeLeft, screen: .degrees0, previous: .degrees90, cause: .mode), proposal: nil,
            evidence: evidence(5.7, reported: .landscapeLeft, proposed: nil), decidedBy: .mode, mode: .laptop)
        #expect(mode.line.contains("(mode): the machine went into laptop mode; the screen turns to portrait-primary: laptop mode holds it"))
    }

    @Test("a moment: what is reported, the direction, what the readings argue for and what it waits for now")
    func moment() {
        var proposal = EvidenceTrail.Proposal(pose: .landscapeLeft, since: 2.0)
        proposal.readings = 4
        proposal.delays = [.init(holdBack: .hold(seconds: 0.12, reason: .usual), from: 2.02, until: 2.06)]
        let now = ClassifierEvidence(
            time: 2.06, reported: .portrait, filtered: rest(roll: 90, tilt: 20), proposed: .landscapeLeft, proposedSince: 2.0,
            holdBack: .hold(seconds: 0.12, reason: .usual), lastDisturbance: 1.5, walking: true)
        #expect(
            MomentExplanation(at: 2.07, evidence: now, proposal: proposal).line
                == "2.07 reported portrait; gravity tilted 20°, turned 90° from portrait; the readings argued for landscape-left from 2 s (4 readings; at the end tilted 20°, turned 0° from it in the screen plane, carried by someone walking); now it waits for its hold of 0.12 s (hold-time); last disturbance at 1.5 s; last reading classified at 2.06 s"
        )
    }
}
