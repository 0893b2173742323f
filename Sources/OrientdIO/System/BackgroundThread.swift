import CLinux
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
        let name: String
        let body: @Sendable () -> Void
        init(name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Why no thread could be made, in words a user can act on.
    public struct Refusal: Error, CustomStringConvertible {
        public let errno: Errno
        public var description: String {
            errno == .resourceTemporarilyUnavailable ? "\(errno) (the user's process limit, ulimit -u, or memory)" : "\(errno)"
        }
    }

    /// Starts `body` on a new thread named `name`, or throws why none could be made with
    /// `body` not run. Never inline instead: every caller hands over a loop or a wait that
    /// would hold its own thread for ever. The name (at most 15 bytes, the kernel's limit;
    /// longer is cut) is what `ps -L`, `top -H`, gdb and /proc/PID/task/TID/comm show, so
    /// a thread that wakes too often says whose it is.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(Refusal) {
        let box = Unmanaged.passRetained(Box(name: name, body)).toOpaque()
        var thread = pthread_t()
        let r = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                _ = pthread_setname_np(pthread_self(), String(decoding: box.name.utf8.prefix(15), as: UTF8.self))
                box.body()
                return nil
            }, box)
        if r != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw Refusal(errno: Errno(rawValue: r))
        }
        pthread_detach(thread)
    }
}
