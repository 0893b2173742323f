import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Gives back to the kernel the resident memory only the daemon's start needed, once it
/// is past it (issue 37; docs/development.md, "Memory"):
/// - pages of files that only this process maps: the runtime's initialisation, the
///   command line and the discovery ran over megabytes of code and constants the daemon
///   never touches again. They are as read from the file, so the kernel can drop them
///   (`MADV_PAGEOUT`, Linux 5.4); a page touched again is read from the file again;
/// - the pages of the calling thread's stack below where it runs now: the start went
///   deeper than its loop will, and glibc gives back a thread's stack the same way when
///   the thread ends.
/// Both are advice: where the kernel refuses (older than 5.4, a filter), nothing is
/// lost but the saving, so failures are not reported.
public enum ResidentMemory {
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
        var advised = 0
        for mapping in mappings where mapping.isUnmodifiedFile {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            // Read back only what is touched: no read-ahead of the neighbours (which
            // fault-around would then map too) into pages the start alone used.
            _ = madvise(start, Int(mapping.byteCount), MADV_RANDOM)
            if madvise(start, Int(mapping.byteCount), MADV_PAGEOUT) == 0 { advised += Int(mapping.byteCount) }
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
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        guard let stack = mappings.first(where: { $0.start <= here && here < $0.end }),
            let low = UnsafeMutableRawPointer(bitPattern: stack.start)
        else { return 0 }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        // The page the frame is in and the one below it stay.
        let top = (here & ~(page - 1)) &- page
        guard top > stack.start else { return 0 }
        return madvise(low, Int(top - stack.start), MADV_DONTNEED) == 0 ? Int(top - stack.start) : 0
    }
}
