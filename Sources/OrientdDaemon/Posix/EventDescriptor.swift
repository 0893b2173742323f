import CLinux
import Glibc
import SystemPackage

/// An eventfd that wakes the control thread from any other thread. Only the descriptor
/// is shared, and eventfd reads and writes are atomic, which is what makes it Sendable.
public final class EventDescriptor: Sendable {
    public let descriptor: Int32

    public init() throws(Errno) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        descriptor = fd
    }

    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Clears the pending wake-ups.
    public func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }

    deinit { close(descriptor) }
}
