/// Whether the system slept (suspended to RAM or disk) between two looks, from the time it
/// has spent suspended since boot: CLOCK_BOOTTIME counts a sleep and CLOCK_MONOTONIC does
/// not, so their difference grows by the length of each one. A late wake-up cannot tell:
/// on real hardware the drivers suspend in milliseconds, and the sleep itself is not on
/// the monotonic clock the waits run on. Times in seconds; no I/O.
public struct SystemSleeps: Sendable, Equatable {
    /// Shorter growth is the two clocks read a moment apart, not a sleep.
    public static let shortest = 0.5

    private var suspended: Double?

    public init() {}

    /// The time suspended since boot is `suspended` now: true when it grew by a sleep
    /// since the last look (the first look only takes note).
    public mutating func slept(suspended now: Double) -> Bool {
        defer { suspended = now }
        guard let before = suspended else { return false }
        return now - before >= Self.shortest
    }
}
