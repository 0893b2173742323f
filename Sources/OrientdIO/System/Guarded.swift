import Glibc
import Synchronization

/// A value behind a lock, shared between threads: Synchronization's `Mutex`, or in a
/// build for ThreadSanitizer (`-D ORIENTD_TSAN_LOCKS`, scripts/test's sanitizer tier) a
/// pthread mutex. Swift 6.3's `Mutex` on Linux is a priority-inheritance futex that the
/// kernel hands from one owner to the next, out of ThreadSanitizer's sight, so it reports
/// every contended value behind one as a race (measured: two threads adding 200,000
/// times each to one counter under `withLock` get 400,000 and a report); pthread's
/// mutex it intercepts, so it sees the order the lock makes.
#if ORIENTD_TSAN_LOCKS
    public typealias Guarded<Value> = PthreadMutex<Value>
#else
    public typealias Guarded<Value> = Mutex<Value>
#endif

/// `Mutex`'s `withLock` on a pthread mutex, for ThreadSanitizer's builds (`Guarded`).
// @unchecked Sendable: `value` is read and written only inside `withLock`, between
// pthread_mutex_lock and pthread_mutex_unlock on `mutex`, which never moves (allocated
// once, freed in deinit, when no thread can hold a reference).
public final class PthreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
