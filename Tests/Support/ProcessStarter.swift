import Foundation
import OrientdIO

/// `Process.run()` and `waitUntilExit()` without a run loop on the test's own thread.
///
/// Foundation's `run()` adds a source to the calling thread's run loop, making one, and
/// `waitUntilExit()` spins it. Tests run on libdispatch's workers; as a worker ends,
/// CoreFoundation frees its run loop in a thread-exit destructor that runs after
/// ThreadSanitizer has let the thread go, and the sanitizer's allocator crashes (measured:
/// SEGV at 0x1048 in SizeClassAllocator64LocalCache::Allocate, under __CFTSDFinalize, in
/// every ThreadSanitizer run of the command-line suites). So every start is made on one
/// thread that lives as long as the test process, and an end is waited for by polling.
extension Process {
    /// `run()`, on the one thread that starts the tests' processes.
    public func start() throws { try ProcessStarter.shared.start(self) }

    /// `waitUntilExit()` without its run loop.
    public func waitForEnd() {
        while isRunning { usleep(1000) }
    }
}

/// The thread that starts every process of the tests, one at a time.
final class ProcessStarter: Sendable {
    static let shared = ProcessStarter()

    /// A process to start, and what came of it.
    // @unchecked Sendable: `process` is used by the starter thread only between the
    // caller's hand-over and `done`, while the caller waits on `done` and touches nothing:
    // one thread at a time, ordered by the lock and the semaphore.
    private final class Request: @unchecked Sendable {
        let process: Process
        let done = DispatchSemaphore(value: 0)
        let failure = Guarded<(any Error)?>(nil)

        init(process: Process) { self.process = process }
    }

    private let pending = Guarded<[Request]>([])
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                wake.wait()
                guard let request = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                do {
                    try request.process.run()
                } catch {
                    request.failure.withLock { $0 = error }
                }
                request.done.signal()
            }
        }
        thread.name = "process-starter"
        thread.start()
    }

    func start(_ process: Process) throws {
        let request = Request(process: process)
        pending.withLock { $0.append(request) }
        wake.signal()
        request.done.wait()
        if let failure = request.failure.withLock({ $0 }) { throw failure }
    }
}
