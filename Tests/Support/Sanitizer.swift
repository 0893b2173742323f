import Foundation

/// The sanitizer the test bundle and orientd were built with (`ORIENTD_TEST_SANITIZER`,
/// set by `scripts/test --sanitize`), and what such a build cannot show.
public enum Sanitizer {
    /// `thread` or `address`; nil in the build that ships.
    public static let name: String? = ProcessInfo.processInfo.environment["ORIENTD_TEST_SANITIZER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Why a bound on resident memory is not checked: the sanitizer's allocator keeps what
    /// is freed (AddressSanitizer's quarantine holds up to 256 MB, to catch a use after it)
    /// and maps shadow memory beside the heap, so the figure is its, not orientd's.
    public static var memoryNotMeasured: String {
        "built with the \(name ?? "") sanitizer, whose allocator holds freed memory: resident sizes are its, not orientd's"
    }
}

/// LeakSanitizer's check at exit, off in the test process alone (orientd, its child, is
/// checked at each exit): the test process's leaks are the harness's, through Foundation
/// (`Process`, `Pipe` and `String(contentsOf:)`: 629 kB in 1907 allocations over the fast
/// tier, none in orientd's code). The runtime calls it at exit; it has no effect in a
/// build without the sanitizer.
@_cdecl("__lsan_is_turned_off")
public func leakCheckOffInTheTestProcess() -> Int32 { 1 }
