import CLinux
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes a thread blocked in poll(2) on `descriptor`, from any thread: an eventfd, which
/// stays readable from the first `signal()` until `drain()`.
///
/// Used two ways: as a stop latch (signalled once and never drained, so every later poll
/// sees it at once), and as a doorbell (signalled for each batch of work, drained by the
/// thread that does it). Only the descriptor is shared, and eventfd's reads and writes
/// are atomic; the flag is an atomic: that is what makes it Sendable.
public final class WakeUp: Sendable {
    public let descriptor: FileDescriptor
    private let signalled = Atomic<Bool>(false)

    /// Throws when no eventfd can be made (out of descriptors): a thread that could not
    /// be woken could never be stopped, so there is no use starting it.
    public init() throws(Errno) {
        descriptor = try FileDescriptor.eventDescriptor(flags: Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    public func signal() {
        signalled.store(true, ordering: .releasing)
        let one: UInt64 = 1
        _ = try? withUnsafeBytes(of: one) { try descriptor.write($0) }
    }

    /// Whether `signal()` was ever called, without a system call.
    public var isSignalled: Bool { signalled.load(ordering: .acquiring) }

    /// Waits up to `seconds` (0: just looks) for a signal; true when there is one.
    public func wait(seconds: Double) -> Bool {
        if isSignalled && seconds <= 0 { return true }
        var p = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let timeout = seconds <= 0 ? 0 : Int32(min(seconds * 1000, 1e9).rounded(.up))
        while true {
            let r = poll(&p, 1, timeout)
            if r < 0 && errno == EINTR { continue }
            return r > 0
        }
    }

    /// Clears the pending wake-ups (the doorbell's use).
    public func drain() {
        var count: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &count) { try descriptor.read(into: $0) }
    }

    deinit { try? descriptor.close() }
}
