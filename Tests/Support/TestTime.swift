import Foundation

/// How long a test waits for the programs it starts: a bound written for this machine's own
/// CPU, times `ORIENTD_TEST_TIME_SCALE` (1 when unset). `scripts/build-dist` sets it for a
/// test bundle run under qemu-user emulation, where every program is several times slower;
/// a bound that is a measurement (a rate, an interval) is not scaled, only a wait is.
public enum TestTime {
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["ORIENTD_TEST_TIME_SCALE"] else { return 1 }
        guard let value = Double(text), value >= 1, value.isFinite else {
            fatalError("ORIENTD_TEST_TIME_SCALE=\(text): expected a number of at least 1")
        }
        return value
    }()

    /// `seconds` on this machine, as long as the test may wait where it runs.
    public static func wait(_ seconds: Double) -> Double { seconds * scale }
}
