import Foundation
import OrientdIO
import OrientdTestSupport
import Testing

/// `BackgroundThread` against this machine's kernel: the thread runs its body, under the
/// name it was given, as `ps -L` and /proc show it.
@Suite("Background threads, named")
struct BackgroundThreadTests {
    /// The calling thread's name as the kernel has it.
    static func ownName() -> String {
        let path = "/proc/thread-self/comm"
        return (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "(\(path) unreadable)"
    }

    @Test(
        "the thread runs under its name; a name over the kernel's 15 bytes is cut, not refused",
        arguments: [("sensor-display", "sensor-display"), ("a-name-longer-than-fifteen", "a-name-longer-t")])
    func named(name: String, shown: String) throws {
        final class Seen: Sendable {
            let name = Guarded<String?>(nil)
        }
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        try BackgroundThread.start(name: name) {
            seen.name.withLock { $0 = Self.ownName() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + TestTime.wait(10)) == .success, "the thread ran its body")
        #expect(seen.name.withLock { $0 } == shown)
        #expect(Self.ownName() != shown, "the caller's own name is left alone")
    }
}
