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
