import CLinux
import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Gives back to the kernel the resident memory only the daemon's start needed, once it
/// is past it (docs/development.md, "Memory"):
/// - pages of files that only this process maps: the runtime's initialisation, the
///   command line and the discovery ran over megabytes of code and constants the daemon
///   never touches again. They are as read from the file, so the kernel can drop them
///   (`MADV_PAGEOUT`, Linux 5.4); a page touched again is read from the file again;
///   where the kernel will not (a file the caller cannot write), the program's own are
///   unmapped instead;
/// - the pages of the calling thread's stack below where it runs now: the start went
///   deeper than its loop will, and glibc gives back a thread's stack the same way when
///   the thread ends.
/// All are advice: where the kernel refuses (older than 5.4, a filter), nothing is
/// lost but the saving, so failures are not reported.
public enum ResidentMemory {
    /// This process's own program, as `/proc/self/smaps` names its mappings; nil where
    /// it cannot be read.
    public static func executable() -> String? { SymbolicLink.target(of: "/proc/self/exe") }

    /// Unmaps the pages of `executable`'s mappings that are its file's as read from it
    /// (`MADV_DONTNEED`), where `pageOutFiles` cannot drop them: the kernel pages out a
    /// file's pages only for a caller that could open the file for writing (since 5.7;
    /// `can_do_pageout`, now `can_do_file_pageout`), which the shipped unit's user cannot do to
    /// /usr/bin/orientd (measured on Debian 12's kernel: the binary 6.0 MiB resident as
    /// the unit runs it, 2.5 as root). Unmapped, they stay in the page cache, clean and
    /// first to be reclaimed, and a page touched again is mapped from it again. Only a
    /// mapping with no page copied on a write (a debugger's breakpoint, a uprobe) is
    /// unmapped, and only the program's own: a library's pages are shared with other
    /// processes, whose memory would not shrink. Returns the bytes of the mappings.
    @discardableResult
    public static func unmapExecutable(_ mappings: [MemoryMapping], executable: String) -> Int {
        advise(mappings.filter { $0.isUnmodifiedFile && $0.path == executable }, MADV_DONTNEED)
    }

    /// This process's mappings, as `/proc/self/smaps` lists them now; empty where it
    /// cannot be read.
    public static func mappings() -> [MemoryMapping] {
        guard let bytes = try? WholeFile.read("/proc/self/smaps", limit: 8 << 20) else { return [] }
        return MemoryMapping.parse(String(decoding: bytes, as: UTF8.self))
    }

    /// Advises the kernel to drop the pages of each of `mappings` that is a file's as
    /// read from it (`MemoryMapping.isUnmodifiedFile`); pages other processes map too
    /// stay. Returns the bytes of the mappings advised.
    @discardableResult
    public static func pageOutFiles(_ mappings: [MemoryMapping]) -> Int {
        let files = mappings.filter(\.isUnmodifiedFile)
        // Read back only what is touched: no read-ahead of the neighbours (which
        // fault-around would then map too) into pages the start alone used.
        advise(files, MADV_RANDOM)
        return advise(files, MADV_PAGEOUT)
    }

    /// Gives `advice` for each of `mappings`; returns the bytes of those it was taken for.
    @discardableResult
    private static func advise(_ mappings: [MemoryMapping], _ advice: Int32) -> Int {
        var advised = 0
        for mapping in mappings {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(start, Int(mapping.byteCount), advice) == 0 { advised += Int(mapping.byteCount) }
        }
        return advised
    }

    /// Drops the calling thread's stack pages more than a page below its current frame:
    /// memory below the stack pointer holds nothing live (x86-64's red zone is 128
    /// bytes), and no signal is delivered to orientd's threads (all are blocked, read
    /// through a signalfd). The stack is the one of `mappings` the frame is in: a
    /// thread's, made by glibc, or the main thread's `[stack]`. Returns the bytes
    /// released.
    @discardableResult
    public static func releaseUnusedStack(_ mappings: [MemoryMapping]) -> Int {
        let here = stackPointer()
        guard let stack = mappings.first(where: { $0.start <= here && here < $0.end }) else { return 0 }
        return releaseStack(from: stack.start, below: here)
    }

    /// The same for a thread other than the main one, its stack found without reading
    /// `/proc` or allocating (`pthread_getattr_np`, which for the main thread would read
    /// `/proc/self/maps`). A reader calls it when it slows to rest: its set-up and its
    /// moving went deeper than its loop goes at rest (the buffered reader's 52 KiB then
    /// 28); and a thread that waits for a sensor to be plugged, as its
    /// discovery did.
    @discardableResult
    public static func releaseUnusedThreadStack() -> Int {
        var attributes = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base else { return 0 }
        let low = UInt(bitPattern: base)
        let here = stackPointer()
        guard low <= here, here < low + UInt(size) else { return 0 }
        return releaseStack(from: low, below: here)
    }

    /// An address on the thread's stack in the caller's frame or below it (not inlined).
    @inline(never)
    private static func stackPointer() -> UInt {
        UInt(bitPattern: orientd_frame_address())
    }

    private static func releaseStack(from start: UInt, below here: UInt) -> Int {
        guard let low = UnsafeMutableRawPointer(bitPattern: start) else { return 0 }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        // The page the frame is in and the one below it stay.
        let top = (here & ~(page - 1)) &- page
        guard top > start else { return 0 }
        return madvise(low, Int(top - start), MADV_DONTNEED) == 0 ? Int(top - start) : 0
    }
}
