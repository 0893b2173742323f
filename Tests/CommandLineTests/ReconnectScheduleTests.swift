import OrientdClient
import Testing

@Suite("ReconnectSchedule: the waits before reaching a daemon again")
struct ReconnectScheduleTests {
    @Test("0.1 s, doubling up to 2 s, and from 0.1 s again after a connection")
    func doublesThenHolds() {
        var schedule = ReconnectSchedule()
        let delays = (0..<8).map { _ in schedule.nextDelay() }
        #expect(delays == [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0])
        schedule.reset()
        #expect(schedule.nextDelay() == 0.1)
        #expect(schedule.nextDelay() == 0.2)
    }
}
