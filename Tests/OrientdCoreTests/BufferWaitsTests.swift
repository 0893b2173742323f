import Testing

@testable import OrientdCore

@Suite("Buffered reader's waits")
struct BufferWaitsTests {
    /// A buffer opened at 100 s, read at 50 Hz at the full pace, last read at 110 s.
    func reading(
        pace: AdaptiveRate.Pace = .full, restReadingDue: Double? = nil, sendsFasterThanRest: Bool = false, drained: Bool = false,
        lastRead: Double = 110, silent: Bool = false, nextCheck: Double = .infinity
    ) -> BufferWaits.Reader {
        BufferWaits.Reader(
            restReadingDue: restReadingDue, period: 0.02, sendsFasterThanRest: sendsFasterThanRest, drained: drained, pace: pace,
            opened: 100, lastRead: lastRead, silent: silent, nextCheck: nextCheck)
    }

    @Test("at the full pace, reads are batched: within the window the reader waits for its end, after it polls")
    func batching() {
        #expect(BufferWaits.batch == 1 / SamplingFrequency.readsPerSecond)
        #expect(BufferWaits.before(reading(), now: 110.01) == .batch(until: 110 + BufferWaits.batch))
        #expect(BufferWaits.before(reading(), now: 110 + BufferWaits.batch + 0.001) == .poll)
        #expect(BufferWaits.before(reading(lastRead: -.infinity), now: 110) == .poll)
        // Not in the first half second, so the first event is not delayed.
        #expect(BufferWaits.before(reading(lastRead: 100.2), now: 100.21) == .poll)
        #expect(BufferWaits.before(reading(lastRead: 100.6), now: 100.61) == .batch(until: 100.6 + BufferWaits.batch))
        // Not at rest or watching either: those wake only for what they need.
        #expect(BufferWaits.before(reading(pace: .rest), now: 110.01) == .poll)
        #expect(BufferWaits.before(reading(pace: .watch), now: 110.01) == .poll)
    }

    @Test("at rest on a sensor that sends faster: one period after the reading is due, read without polling")
    func restOnAFastSensor() {
        let fast = reading(pace: .rest, restReadingDue: 112, sendsFasterThanRest: true)
        #expect(BufferWaits.before(fast, now: 111) == .readRestReading(at: 112.02))
        // A sensor at the rest rate itself, or a buffer the last read drained, is polled.
        #expect(BufferWaits.before(reading(pace: .rest, restReadingDue: 112), now: 111) == .poll)
        #expect(
            BufferWaits.before(reading(pace: .rest, restReadingDue: 112, sendsFasterThanRest: true, drained: true), now: 111) == .poll)
    }

    @Test("poll's time-out: a second, 0.1 s while silent, and until the next check while watching")
    func pollTimeout() {
        #expect(BufferWaits.pollTimeout(reading(), now: 110) == 1000)
        #expect(BufferWaits.pollTimeout(reading(silent: true), now: 110) == 100)
        #expect(BufferWaits.pollTimeout(reading(pace: .watch, silent: true, nextCheck: 170), now: 110) == 100)
        #expect(BufferWaits.pollTimeout(reading(pace: .watch, nextCheck: 170), now: 110) == 60_000)
        #expect(BufferWaits.pollTimeout(reading(pace: .watch, nextCheck: 110.0001), now: 110) == 1)
        #expect(BufferWaits.pollTimeout(reading(pace: .watch, nextCheck: 100), now: 110) == 1)
        #expect(BufferWaits.pollTimeout(reading(pace: .watch), now: 110) == 3_600_000)
    }

    @Test("a wait that ends over 2 s late was a suspend; later by less is load")
    func suspend() {
        #expect(BufferWaits.slept(asked: 10, timeout: 1000, now: 18))
        #expect(!BufferWaits.slept(asked: 10, timeout: 1000, now: 12.9))
        #expect(!BufferWaits.slept(asked: 10, timeout: 100, now: 12.05))
        #expect(BufferWaits.slept(asked: 10, timeout: 100, now: 12.2))
    }

    @Test("waits are rounded up to a millisecond: never a busy poll of 0 before the deadline")
    func milliseconds() {
        #expect(BufferWaits.milliseconds(from: 10, until: 10.0201) == 21)
        #expect(BufferWaits.milliseconds(from: 10, until: 10.0000001) == 1)
        #expect(BufferWaits.milliseconds(from: 10, until: 10.02) == 20)
    }
}
