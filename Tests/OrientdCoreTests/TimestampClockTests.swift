import Testing

@testable import OrientdCore

@Suite("A buffer's timestamps on the run's clock")
struct TimestampClockTests {
    /// A device whose clock reads 1.7e9 s (the realtime clock) at the run's 2 s.
    static let origin: Int64 = 1_700_000_000_000_000_000

    @Test("the first scan is pinned to its arrival; later ones keep the device's spacing, whatever their delivery's jitter")
    func spacingKept() {
        var clock = TimestampClock()
        #expect(clock.time(nanoseconds: Self.origin, arrival: 2.0) == 2.0)
        // 10 ms apart on the device, delivered late and in bursts.
        #expect(abs(clock.time(nanoseconds: Self.origin + 10_000_000, arrival: 2.05) - 2.01) < 1e-9)
        #expect(abs(clock.time(nanoseconds: Self.origin + 20_000_000, arrival: 2.05) - 2.02) < 1e-9)
        #expect(abs(clock.time(nanoseconds: Self.origin + 30_000_000, arrival: 2.031) - 2.03) < 1e-9)
    }

    @Test("a device time over a second from the arrival (its clock was set) pins the clock again, at that arrival")
    func clockChangePinsAgain() {
        var clock = TimestampClock()
        _ = clock.time(nanoseconds: Self.origin, arrival: 2.0)
        // The realtime clock set back an hour: the scan counts from its arrival.
        #expect(clock.time(nanoseconds: Self.origin - 3_600_000_000_000, arrival: 2.1) == 2.1)
        // And the spacing after it is the device's again.
        #expect(abs(clock.time(nanoseconds: Self.origin - 3_600_000_000_000 + 10_000_000, arrival: 2.2) - 2.11) < 1e-9)
        // Within a second of the arrival is the device's time, not a change.
        var near = TimestampClock()
        _ = near.time(nanoseconds: Self.origin, arrival: 2.0)
        #expect(abs(near.time(nanoseconds: Self.origin + 900_000_000, arrival: 2.0) - 2.9) < 1e-9)
    }

    @Test("time never runs back: a scan stamped before the last is pinned at the later of the last time and its arrival")
    func neverBack() {
        var clock = TimestampClock()
        _ = clock.time(nanoseconds: Self.origin, arrival: 2.0)
        let later = clock.time(nanoseconds: Self.origin + 500_000_000, arrival: 2.1)
        #expect(abs(later - 2.5) < 1e-9)
        // Stamped before the last scan, arriving before the last time: the last time.
        #expect(clock.time(nanoseconds: Self.origin + 100_000_000, arrival: 2.2) == later)
        // Pinned at that scan's arrival, the next ones wait at the last time until the
        // device's spacing from it passes it.
        #expect(clock.time(nanoseconds: Self.origin + 110_000_000, arrival: 2.3) == later)
        #expect(abs(clock.time(nanoseconds: Self.origin + 450_000_000, arrival: 2.6) - 2.64) < 1e-9)
    }

    @Test("a device counter that wraps past Int64's end goes on by its spacing, without trapping")
    func wrapping() {
        var clock = TimestampClock()
        #expect(clock.time(nanoseconds: .max, arrival: 1.0) == 1.0)
        // .min is the nanosecond after .max on a wrapping counter.
        #expect(abs(clock.time(nanoseconds: .min, arrival: 1.5) - 1.000_000_001) < 1e-12)
    }
}
