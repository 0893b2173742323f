import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a detached POSIX thread. orientd's blocking C reads (udev, IIO buffers) each
/// get one, so the rest of the program never blocks on them; Foundation's Thread would
/// pull Foundation into the daemon, whose resident size is a target.
public enum BackgroundThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    public static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let r = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        if r != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            body()  // cannot happen short of resource exhaustion; run inline rather than lose it
            return
        }
        pthread_detach(thread)
    }
}

/// A pipe whose write end wakes a thread blocked in poll(2): closing it says "stop".
/// Only file descriptors cross threads, and `signal()` closes the write end exactly
/// once, whoever calls it and however often (a second close could hit a descriptor
/// number already reused by someone else).
public final class WakeUpPipe: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32
    private let signalled = Atomic<Bool>(false)

    /// Throws when no pipe can be made (out of descriptors): a thread without one could
    /// never be stopped, so there is no use starting it.
    public init() throws(Errno) {
        var fds: [Int32] = [-1, -1]
        // pipe2 is not in Glibc's Swift module: pipe, then the flags.
        guard pipe(&fds) == 0 else { throw Errno(rawValue: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Wakes the thread; it sees end of file and stops. Only the first call acts.
    public func signal() {
        if signalled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            close(writeEnd)
        }
    }

    /// Whether `signal()` was called, without a system call.
    public var isSignalled: Bool { signalled.load(ordering: .acquiring) }

    deinit {
        signal()
        close(readEnd)
    }
}
