import Testing

@testable import OrientdCore

@Suite("A watching sensor's check")
struct WatchCheckTests {
    /// Set to watch at 100 s.
    func watching() -> WatchCheck {
        var check = WatchCheck()
        check.paceChanged(to: .watch, at: 100)
        return check
    }

    @Test("a silence while watching is expected until a check is due, one interval after the watch began")
    func expectedUntilDue() {
        let check = watching()
        #expect(check.next == 100 + WatchCheck.interval)
        #expect(check.silence(at: 159.9, watching: true, stalled: false, canAsk: true) == .expected)
        #expect(check.silence(at: 160, watching: true, stalled: false, canAsk: true) == .ask)
        // A remote sensor has no attribute to read: never asked, its silence expected.
        #expect(check.silence(at: 200, watching: true, stalled: false, canAsk: false) == .expected)
    }

    @Test("the silence counts when not watching, when stalled, and after a check went unanswered")
    func silenceCounts() {
        #expect(WatchCheck().silence(at: 100, watching: false, stalled: false, canAsk: true) == .counts)
        #expect(WatchCheck().next == .infinity)
        #expect(watching().silence(at: 110, watching: true, stalled: true, canAsk: true) == .counts)
        var check = watching()
        let answered = check.asked(answered: false, from: 160, to: 160.01)
        #expect(!answered)
        #expect(check.isUnanswered)
        #expect(check.silence(at: 160.2, watching: true, stalled: false, canAsk: true) == .counts)
    }

    @Test("a check answered in time sets the next one an interval after it returned; one that took hungAfter is no answer")
    func answers() {
        var check = watching()
        let answered = check.asked(answered: true, from: 160, to: 160.005)
        #expect(answered)
        #expect(!check.isUnanswered)
        #expect(check.next == 160.005 + WatchCheck.interval)
        #expect(check.silence(at: 200, watching: true, stalled: false, canAsk: true) == .expected)
        // The HID driver answers a hung hub with 0 after its time-outs: a reading, too late.
        var slow = watching()
        let late = slow.asked(answered: true, from: 160, to: 160 + BufferSilence.hungAfter)
        #expect(!late)
        #expect(slow.isUnanswered)
        #expect(slow.next == 161 + WatchCheck.interval)
    }

    @Test("scans, or a change of pace, end an unanswered check; a pace other than the watch is never checked")
    func unansweredEnds() {
        var check = watching()
        _ = check.asked(answered: false, from: 160, to: 170)
        check.scansCame()
        #expect(!check.isUnanswered)
        #expect(check.silence(at: 180, watching: true, stalled: false, canAsk: true) == .expected)
        _ = check.asked(answered: false, from: 230, to: 231)
        check.paceChanged(to: .full, at: 232)
        #expect(!check.isUnanswered && check.next == .infinity)
        check.paceChanged(to: .watch, at: 240)
        #expect(check.next == 300)
    }
}
