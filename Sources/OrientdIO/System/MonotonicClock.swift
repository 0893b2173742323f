#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CLOCK_MONOTONIC in seconds: the one clock of the daemon's waits, deadlines and live
/// samples (it does not jump with the wall clock, and stands still while suspended, so a
/// live stream's `time` is on it). Rules that depend on time take it as a value, so their
/// tests give them time.
public enum MonotonicClock {
    public static var now: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds the system has spent suspended since boot: CLOCK_BOOTTIME less
    /// CLOCK_MONOTONIC (`SystemSleeps` tells a sleep from it).
    public static var suspended: Double {
        #if os(Linux)
            var boot = timespec()
            clock_gettime(CLOCK_BOOTTIME, &boot)
            return Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9 - now
        #else
            return 0
        #endif
    }
}
