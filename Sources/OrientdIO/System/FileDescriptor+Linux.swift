import CLinux
import Glibc
import SystemPackage

/// The calls on descriptors that swift-system does not wrap (sockets, eventfd, signalfd,
/// pidfd, timerfd), in its manner: a `FileDescriptor` in and out, `Errno` thrown, and EINTR
/// retried by default where the call can block, as its `read` and `write` do. Kept in
/// one place so that the rest of the project never holds a descriptor as a bare `Int32`.
extension FileDescriptor {
    /// socket(2); `type` may carry SOCK_CLOEXEC and SOCK_NONBLOCK.
    public static func socket(domain: Int32, type: Int32, protocol: Int32 = 0) throws(Errno) -> FileDescriptor {
        let fd = Glibc.socket(domain, type, `protocol`)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// accept(2), without the peer's address. (accept4 is not exported to Swift: a
    /// caller that needs flags on the connection sets them after.)
    public func accept(retryOnInterrupt: Bool = true) throws(Errno) -> FileDescriptor {
        let fd = try Self.retrying(retryOnInterrupt) { Glibc.accept(rawValue, nil, nil) }
        return FileDescriptor(rawValue: fd)
    }

    /// send(2) with `flags` (MSG_NOSIGNAL, MSG_DONTWAIT); the number of bytes sent.
    public func send(_ buffer: UnsafeRawBufferPointer, flags: Int32, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try Self.retrying(retryOnInterrupt) { Glibc.send(rawValue, buffer.baseAddress, buffer.count, flags) }
    }

    /// sendto(2) with `flags`, to the address `address` points at.
    public func send(
        _ buffer: UnsafeRawBufferPointer, to address: UnsafePointer<sockaddr>, length: socklen_t, flags: Int32,
        retryOnInterrupt: Bool = true
    ) throws(Errno) -> Int {
        try Self.retrying(retryOnInterrupt) { Glibc.sendto(rawValue, buffer.baseAddress, buffer.count, flags, address, length) }
    }

    /// recv(2) with `flags` (MSG_DONTWAIT); the number of bytes read, 0 at end of file.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try Self.retrying(retryOnInterrupt) { Glibc.recv(rawValue, buffer.baseAddress, buffer.count, flags) }
    }

    /// Which way shutdown(2) closes a connection.
    public enum ShutdownDirection: Sendable {
        case read, write, both

        var rawValue: Int32 {
            switch self {
            case .read: Int32(SHUT_RD)
            case .write: Int32(SHUT_WR)
            case .both: Int32(SHUT_RDWR)
            }
        }
    }

    /// shutdown(2).
    public func shutdown(_ direction: ShutdownDirection) throws(Errno) {
        guard Glibc.shutdown(rawValue, direction.rawValue) == 0 else { throw Errno(rawValue: errno) }
    }

    /// eventfd(2) with `flags` (EFD_CLOEXEC, EFD_NONBLOCK).
    public static func eventDescriptor(initialValue: UInt32 = 0, flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = eventfd(initialValue, flags)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// A new signalfd(2) for `signals` with `flags` (SFD_CLOEXEC, SFD_NONBLOCK).
    public static func signalDescriptor(for signals: inout sigset_t, flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = signalfd(-1, &signals, flags)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// pidfd_open(2): readable once `pid` has exited.
    public static func processDescriptor(for pid: pid_t) throws(Errno) -> FileDescriptor {
        let fd = pidfd_open(pid, 0)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// timerfd_create(2) on `clock` with `flags` (TFD_CLOEXEC, TFD_NONBLOCK).
    public static func timerDescriptor(clock: clockid_t, flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = timerfd_create(clock, flags)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// timerfd_settime(2): this timer to expire at `value` (once), `flags` saying how
    /// (TFD_TIMER_ABSTIME, TFD_TIMER_CANCEL_ON_SET).
    public func setTimer(_ value: timespec, flags: Int32) throws(Errno) {
        var setting = itimerspec(it_interval: timespec(), it_value: value)
        guard timerfd_settime(rawValue, flags, &setting, nil) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Runs `call` (a system call returning -1 and setting errno on failure) again while
    /// it is interrupted and `retry` allows.
    private static func retrying<Result: FixedWidthInteger>(_ retry: Bool, _ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno(rawValue: errno)
            if retry && error == .interrupted { continue }
            throw error
        }
    }
}
