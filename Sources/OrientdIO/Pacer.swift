#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sleeps until a stream time is due on the monotonic clock, so a replay runs at the
/// recorded pace (or `speed` times it) without drifting: each wait aims at an absolute
/// deadline measured from the start, not at the gap since the last sample.
public struct Pacer {
    public let speed: Double
    private var origin: Double?
    private var startTime = 0.0

    /// - Parameter speed: how many times faster than recorded; must be > 0.
    public init(speed: Double = 1) {
        precondition(speed > 0)
        self.speed = speed
    }

    /// Seconds until `streamTime` is due (negative when late), for a caller that waits
    /// on something else as well. The first call defines the start.
    public mutating func secondsUntil(_ streamTime: Double) -> Double {
        guard let origin else {
            self.origin = streamTime
            startTime = MonotonicClock.now
            return 0
        }
        return startTime + (streamTime - origin) / speed - MonotonicClock.now
    }

    /// Waits until `streamTime` is due. The first call defines the start.
    public mutating func wait(until streamTime: Double) {
        guard let origin else {
            self.origin = streamTime
            startTime = MonotonicClock.now
            return
        }
        let due = startTime + (streamTime - origin) / speed
        let seconds = due.rounded(.down)
        var deadline = timespec(tv_sec: Int(seconds), tv_nsec: Int((due - seconds) * 1e9))
        #if canImport(Glibc)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        #else
            let delay = due - MonotonicClock.now
            if delay > 0 { usleep(UInt32(delay * 1e6)) }
        #endif
    }
}
