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
        // No thread only when resources are exhausted: run inline rather than lose it.
        if !startIfPossible(body) { body() }
    }

    /// Starts `body` on a new thread; false, with `body` not run, when no thread can be
    /// made (resources exhausted), for a caller whose work must not run inline (the
    /// producer half of a pair of threads would wait for its consumer for ever).
    public static func startIfPossible(_ body: @escaping @Sendable () -> Void) -> Bool {
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
            return false
        }
        pthread_detach(thread)
        return true
    }
}
