import Testing

@testable import OrientdCore

@Suite("Rotation suggested while locked (Android 9's rotate button)")
struct SuggestionTests {
    /// A policy with the device in `pose`, after `setUp`.
    func policy(
        _ pose: DeviceOrientation, configured: RotationSet = .all, _ setUp: (inout ScreenPolicy) -> Void = { _ in }
    ) -> ScreenPolicy {
        var policy = ScreenPolicy(configured: configured)
        setUp(&policy)
        policy.deviceDidChange(to: pose)
        return policy
    }

    @Test("rule 5: suggested only where the lock alone holds the screen away from the device")
    func rule() {
        #expect(policy(.landscapeLeft).suggestion == nil, "unlocked: the screen follows by itself")
        #expect(policy(.landscapeLeft) { _ = $0.lock([.degrees0]) }.suggestion == .degrees90)
        #expect(policy(.landscapeRight) { _ = $0.lock([.degrees0]) }.suggestion == .degrees270)
        #expect(policy(.portrait) { _ = $0.lock([.degrees0]) }.suggestion == nil, "the device points where the screen is")
        #expect(policy(.faceUp) { _ = $0.lock([.degrees0]) }.suggestion == nil, "face-up points nowhere")
        #expect(
            policy(.portraitUpsideDown, configured: [.degrees0, .degrees90, .degrees270]) { _ = $0.lock([.degrees0]) }.suggestion
                == nil, "not supported: unlocked, the screen would stay too")
        #expect(
            policy(.landscapeLeft) {
                _ = $0.lock([.degrees0])
                $0.request([.degrees0], by: "app")
            }.suggestion == nil, "an app's request holds it as well")
        #expect(
            policy(.landscapeLeft) {
                _ = $0.lock([.degrees0])
                $0.setMode(.laptop)
            }.suggestion == nil, "laptop mode holds it as well")
        #expect(
            policy(.landscapeLeft) { _ = $0.lock([.degrees0, .degrees180]) }.suggestion == .degrees90,
            "a lock of both portraits")
    }

    /// Updates a tracker through a sequence of (time, pose) with the policy `setUp` makes.
    func run(
        _ steps: [(Double, DeviceOrientation)], timeout: Double = 10, _ setUp: (inout ScreenPolicy) -> Void = { _ = $0.lock([.degrees0]) }
    ) -> [String] {
        var policy = ScreenPolicy()
        setUp(&policy)
        var tracker = RotationSuggestion(timeout: timeout)
        var seen: [String] = []
        for (time, pose) in steps {
            policy.deviceDidChange(to: pose)
            // The service asks first and skips `update` when it says nothing can change.
            let mayChange = tracker.mayChange(with: policy)
            let changes = tracker.update(policy, at: time)
            #expect(mayChange || changes.isEmpty, "at \(time): \(changes) after mayChange said none could come")
            for change in changes {
                switch change {
                case .offered(let offer): seen.append("\(time) offered \(offer.rotation.angle)")
                case .withdrawn(let offer, let reason): seen.append("\(time) withdrawn \(offer.rotation.angle) \(reason.rawValue)")
                }
            }
        }
        return seen
    }

    @Test("offered once when the device settles in another pose, withdrawn when it goes back")
    func offeredAndWithdrawn() {
        #expect(
            run([(0, .portrait), (1, .landscapeLeft), (1.5, .landscapeLeft), (3, .portrait)])
                == ["1.0 offered 90", "3.0 withdrawn 90 device"])
        #expect(
            run([(0, .portrait), (1, .landscapeLeft), (2, .landscapeRight)])
                == ["1.0 offered 90", "2.0 withdrawn 90 device", "2.0 offered 270"], "turned on: the new pose's offer")
        #expect(
            run([(0, .portrait), (1, .landscapeLeft), (2, .faceUp), (3, .landscapeLeft)])
                == ["1.0 offered 90", "2.0 withdrawn 90 device", "3.0 offered 90"], "laid down, picked up again")
    }

    @Test("the timeout withdraws it, and it is not offered again until the device moves")
    func timeout() {
        #expect(
            run([(0, .portrait), (1, .landscapeLeft), (10.9, .landscapeLeft), (11, .landscapeLeft), (30, .landscapeLeft)])
                == ["1.0 offered 90", "11.0 withdrawn 90 timeout"])
        #expect(
            run([(0, .portrait), (1, .landscapeLeft), (11, .landscapeLeft), (12, .portrait), (13, .landscapeLeft)])
                == ["1.0 offered 90", "11.0 withdrawn 90 timeout", "13.0 offered 90"])
        #expect(run([(0, .portrait), (1, .landscapeLeft)], timeout: 0).isEmpty, "timeout 0: none")
    }

    @Test("no offer at start, nor when a lock is set while the device points elsewhere")
    func notOffered() {
        #expect(run([(0, .landscapeLeft), (5, .landscapeLeft)]).isEmpty, "a saved lock at start: the first pose is no turn")
        var policy = ScreenPolicy()
        var tracker = RotationSuggestion()
        policy.deviceDidChange(to: .portrait)
        #expect(tracker.update(policy, at: 0).isEmpty)
        _ = policy.lock([.degrees90])
        #expect(tracker.update(policy, at: 1).isEmpty, "the user chose landscape while holding it upright")
    }

    @Test("unlock and other layers withdraw it")
    func layers() {
        var policy = ScreenPolicy()
        _ = policy.lock([.degrees0])
        var tracker = RotationSuggestion()
        policy.deviceDidChange(to: .portrait)
        _ = tracker.update(policy, at: 0)
        policy.deviceDidChange(to: .landscapeLeft)
        #expect(tracker.update(policy, at: 1).count == 1)
        var unlocked = policy
        unlocked.unlock()
        var copy = tracker
        #expect(copy.update(unlocked, at: 2).map(reason) == ["unlocked"])
        policy.request([.degrees0], by: "app")
        #expect(tracker.update(policy, at: 2).map(reason) == ["layers"])
    }

    func reason(_ change: RotationSuggestion.Change) -> String {
        if case .withdrawn(_, let reason) = change { return reason.rawValue }
        return "offered"
    }

    /// A service locked to portrait, held portrait then turned to landscape-left.
    func turnedWhileLocked() -> OrientationService {
        var service = OrientationService(pipeline: OrientationPipeline())
        _ = service.execute(.lock([.degrees0], words: "portrait-primary"), by: .socket)
        for i in 0..<50 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 0))) }
        for i in 50..<150 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 90))) }
        return service
    }

    func suggestions(_ items: [OrientationService.Outgoing]) -> [String] {
        items.compactMap {
            if case .suggestion(let event) = $0 { String(decoding: event.jsonLine, as: UTF8.self) } else { nil }
        }
    }

    @Test("the service offers it as an event after the orientation event of the turn")
    func serviceOffers() throws {
        var service = turnedWhileLocked()
        let out = service.takeOutbox()
        let offers = suggestions(out)
        #expect(offers.count == 1)
        let offer = try #require(offers.first)
        #expect(offer.contains(#""state":"offered","screen":"landscape-primary","angle":90,"device":"landscape-left","version":1"#))
        guard case .orientation(let turn) = out[out.count - 2] else {
            Issue.record("the offer must follow the orientation event of the turn: \(out)")
            return
        }
        #expect(turn.device == .landscapeLeft && turn.screen == .degrees0)
    }

    @Test("accept: the lock moves to the offer and stays on; the screen turns; the offer ends as accepted")
    func accept() {
        var service = turnedWhileLocked()
        _ = service.takeOutbox()
        let execution = service.execute(.accept, by: .socket)
        #expect(execution.lockChanged, "the new lock is saved")
        #expect(service.pipeline.policy.lock == [.degrees90] && service.pipeline.policy.screen == .degrees90)
        let out = service.takeOutbox()
        var kinds: [String] = []
        for item in out {
            switch item {
            case .lock(let event): kinds.append("lock \(event.policy.isLocked)")
            case .orientation(let event): kinds.append("orientation \(event.screen.angle) \(event.cause.rawValue)")
            case .suggestion(let event): kinds.append(reason(event.change))
            default: break
            }
        }
        #expect(kinds == ["lock true", "orientation 90 lock", "accepted"])
        let reply = String(decoding: execution.reply, as: UTF8.self)
        #expect(reply.hasPrefix(#"{"reply":"accept","ok":true,"type":"landscape-primary","angle":90"#), "\(reply)")
        #expect(reply.contains(#""locked":true"#) && reply.contains(#""accepted":"landscape-primary""#), "\(reply)")

        let again = service.execute(.accept, by: .socket)
        let refusal = String(decoding: again.reply, as: UTF8.self)
        #expect(refusal.hasPrefix(#"{"reply":"accept","ok":false,"error":"nothing to accept"#), "\(refusal)")
        #expect(!again.lockChanged && service.takeOutbox().isEmpty)
    }

    @Test("accept is a command of the control channel, without argument")
    func parse() throws {
        #expect(try ControlCommand.parse("accept", natural: .portrait) == .service(.accept))
        #expect(throws: ControlCommand.Rejection.self) { try ControlCommand.parse("accept now", natural: .portrait) }
        #expect(ControlCommand.summary.contains("accept"))
    }
}
