import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A descriptor that poll(2) finds readable when the system resumes from a suspend (or
/// the wall clock is set): a CLOCK_REALTIME timerfd set to expire in the far future with
/// TFD_TIMER_CANCEL_ON_SET, which the kernel cancels at both (timekeeping_resume calls
/// timerfd_resume). Nothing else tells a process it slept: the monotonic clock its
/// waits run on stands still meanwhile, so a wait of a minute begun before the suspend
/// still has its rest to run after it. Which of the two it was, `SystemSleeps` tells.
public final class ResumeAlarm: Sendable {
    public let descriptor: FileDescriptor

    /// Throws when no timerfd can be made or set (out of descriptors, or a sandbox that
    /// refuses the calls): the caller reads on without it.
    public init() throws(Errno) {
        descriptor = try FileDescriptor.timerDescriptor(clock: CLOCK_REALTIME, flags: Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        do {
            try arm()
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// After poll found it readable: reads the cancellation (or, in some centuries, the
    /// expiry) and sets it again, so it is quiet until the next resume.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &expirations) { try descriptor.read(into: $0) }
        try? arm()
    }

    /// Due in the year 2200, on the wall clock: only a cancellation wakes it.
    private func arm() throws(Errno) {
        let year2200: Int = 7_258_118_400
        try descriptor.setTimer(timespec(tv_sec: year2200, tv_nsec: 0), flags: Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
    }

    deinit { try? descriptor.close() }
}
