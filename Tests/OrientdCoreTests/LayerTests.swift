import Testing

@testable import OrientdCore

/// Every pair of the layers that decide the screen (docs/layers.md, "Layers"), with plain values.
@Suite("Screen layers: supported set, user lock, requests, mode")
struct LayerTests {
    static let landscape: RotationSet = [.degrees90, .degrees270]
    static let portrait: RotationSet = [.degrees0, .degrees180]

    /// Runs a change and checks whether the screen moved.
    func expectMove(
        _ p: inout ScreenPolicy, _ moves: Bool, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout ScreenPolicy) -> Bool
    ) {
        let moved = change(&p)
        #expect(moved == moves, comment, sourceLocation: sourceLocation)
    }

    func policy(device: DeviceOrientation, configured: RotationSet = .all) -> ScreenPolicy {
        var p = ScreenPolicy(configured: configured)
        p.deviceDidChange(to: device)
        return p
    }

    @Test("nothing but the device: the screen follows it and the device decided")
    func deviceAlone() {
        let p = policy(device: .landscapeRight)
        #expect(p.screen == .degrees270)
        #expect(p.decidedBy == .device)
        #expect(p.overridden.isEmpty)
    }

    @Test("supported × device: a pose outside the set keeps the screen, and the set decided")
    func supportedAgainstDevice() {
        var p = policy(device: .portrait, configured: [.degrees0, .degrees90, .degrees270])
        #expect(p.decidedBy == .device)
        expectMove(&p, false) { $0.deviceDidChange(to: .portraitUpsideDown) }
        #expect(p.screen == .degrees0)
        #expect(p.decidedBy == .supported)
    }

    @Test("supported × lock: they meet, so the lock narrows the set; they do not, so the lock wins")
    func supportedAgainstLock() {
        var p = policy(device: .portrait, configured: [.degrees0, .degrees90])
        _ = p.lock(Self.landscape)
        #expect(p.effective == [.degrees90])
        #expect(p.screen == .degrees90)
        #expect(p.decidedBy == .lock)
        #expect(p.overridden.isEmpty)
        let outcome = p.lock([.degrees180])
        #expect(outcome.overridesConfigured)
        #expect(p.effective == [.degrees180])
        #expect(p.overridden == [.supported])
    }

    @Test("supported × request: the request narrows the set; a disjoint request wins over the set (iOS 16)")
    func supportedAgainstRequest() {
        var p = policy(device: .portrait, configured: [.degrees0, .degrees90])
        expectMove(&p, true) { $0.request(Self.landscape, by: "client 1") }
        #expect(p.effective == [.degrees90])
        #expect(p.decidedBy == .request)
        p.request([.degrees180], by: "client 1")
        #expect(p.requests.count == 1, "a client's second request replaces its first")
        #expect(p.screen == .degrees180)
        #expect(p.overridden == [.supported])
    }

    @Test("lock × request: an app's landscape beats the user's portrait lock (iOS), and the lock is back on release")
    func lockAgainstRequest() {
        var p = policy(device: .portrait)
        _ = p.lock(Self.portrait)
        expectMove(&p, true) { $0.request(Self.landscape, by: "client 1") }
        #expect(p.screen == .degrees90)
        #expect(p.overridden == [.lock])
        #expect(p.decidedBy == .request)
        #expect(p.isLocked, "the user's lock stays, under the request")
        expectMove(&p, true) { $0.release(by: "client 1") }
        #expect(p.screen == .degrees0)
        #expect(p.decidedBy == .device, "the device is in portrait, which the lock allows")
    }

    @Test("lock × request that meet: both narrow")
    func lockMeetsRequest() {
        var p = policy(device: .portrait)
        _ = p.lock([.degrees0, .degrees90])
        p.request(Self.landscape, by: "client 1")
        #expect(p.effective == [.degrees90])
        #expect(p.overridden.isEmpty)
    }

    @Test("requests stack: the newest is in force; releasing it uncovers the one below, releasing a lower one moves nothing")
    func stackedRequests() {
        var p = policy(device: .portrait)
        p.request(Self.landscape, by: "client 1")
        p.request([.degrees180], by: "client 2")
        #expect(p.screen == .degrees180)
        #expect(p.request?.owner == "client 2")
        expectMove(&p, true) { $0.release(by: "client 2") }
        #expect(p.screen == .degrees90)
        p.request([.degrees0], by: "client 3")
        expectMove(&p, false, "a request under the top one moves nothing") { $0.release(by: "client 1") }
        #expect(p.requests.map(\.owner) == ["client 3"])
        expectMove(&p, false) { $0.release(by: "nobody") }
    }

    @Test("mode × device: laptop mode holds the natural orientation; tablet mode follows; always follows in both")
    func modeAgainstDevice() {
        var p = policy(device: .landscapeLeft)
        expectMove(&p, true) { $0.setMode(.laptop) }
        #expect(p.screen == .degrees0)
        #expect(p.decidedBy == .mode)
        expectMove(&p, false) { $0.deviceDidChange(to: .portraitUpsideDown) }
        expectMove(&p, true) { $0.setMode(.tablet) }
        #expect(p.screen == .degrees180)
        #expect(p.decidedBy == .device)
        p.setMode(.laptop)
        expectMove(&p, true) { $0.setRotateIn(.always) }
        #expect(p.screen == .degrees180, "rotate-in always: the mode does not hold the screen")
        p.setRotateIn(.tablet)
        expectMove(&p, true) { $0.setMode(nil) }
        #expect(p.screen == .degrees180, "an unknown mode follows the device, as a plain tablet")
    }

    @Test("mode × supported: laptop mode on a set without the natural orientation takes the nearest member")
    func modeAgainstSupported() {
        var p = policy(device: .landscapeLeft, configured: Self.landscape)
        p.setMode(.laptop)
        #expect(p.screen == .degrees90)
        #expect(p.decidedBy == .supported)
    }

    @Test("mode × lock and mode × request: laptop mode turns only when asked")
    func modeAgainstLockAndRequest() {
        var p = policy(device: .portrait)
        p.setMode(.laptop)
        _ = p.lock([.degrees270])
        #expect(p.screen == .degrees270)
        #expect(p.decidedBy == .lock)
        p.unlock()
        #expect(p.screen == .degrees0)
        p.request(Self.landscape, by: "client 1")
        #expect(p.screen == .degrees90)
        #expect(p.decidedBy == .request)
        p.deviceDidChange(to: .landscapeRight)
        #expect(p.screen == .degrees90, "in laptop mode the device does not choose between the requested pair")
        p.setMode(.tablet)
        #expect(p.screen == .degrees270)
    }

    @Test("face-up keeps the screen and the layer that put it there")
    func flatKeepsDecider() {
        var p = policy(device: .portrait)
        _ = p.lock(Self.landscape)
        #expect(p.decidedBy == .lock)
        expectMove(&p, false) { $0.deviceDidChange(to: .faceUp) }
        #expect(p.decidedBy == .lock)
    }
}

@Suite("Mode sources: a switch over the hinge over a command")
struct ModeReportsTests {
    @Test("the most trusted source that answers decides; one that stops answering hands over")
    func trustOrder() {
        var reports = ModeReports()
        #expect(reports.decision == nil)
        reports.report(.laptop, from: .command)
        #expect(reports.decision == ModeReports.Decision(mode: .laptop, source: .command))
        reports.report(.tablet, from: .hinge)
        #expect(reports.decision == ModeReports.Decision(mode: .tablet, source: .hinge))
        reports.report(.laptop, from: .switch)
        #expect(reports.decision == ModeReports.Decision(mode: .laptop, source: .switch))
        reports.report(nil, from: .switch)
        #expect(reports.decision?.source == .hinge)
        reports.report(nil, from: .hinge)
        reports.report(nil, from: .command)
        #expect(reports.decision == nil)
    }
}
