import CLinux
import Foundation
import OrientdCore
import OrientdIO
import Testing

/// `ResidentMemory` against this machine's kernel, in the test's own process: a file's
/// pages are dropped and read again unchanged; anonymous memory and the frame's own
/// stack page are not touched.
@Suite("Resident memory given back after the start")
struct ResidentMemoryTests {
    /// Resident KiB of the mapping that holds `address`, from /proc/self/smaps.
    static func residentKiB(at address: UInt) throws -> Int {
        let mapping = ResidentMemory.mappings().first { $0.start <= address && address < $0.end }
        return try #require(mapping, "no mapping holds \(address) in smaps").residentKiB
    }

    @Test(
        "a file's pages only this process maps are dropped and read back unchanged; anonymous pages stay",
        arguments: ["paged out", "unmapped as the program's"])
    func pagesOut(way: String) throws {
        // Beside the test bundle, on the build's file system (a disk, as /usr/bin is): tmpfs
        // pages would go to swap. A file a case: the two run side by side.
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        let path = bundle + "/resident-memory-\(getpid())-\(way.count)"
        let size = 2 << 20
        let content = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
        try content.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(file, size) }
        // Between two inaccessible pages, so that the kernel merges no neighbour into its
        // mapping (a sanitizer's build maps its own anonymous memory all around).
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let fenced = try #require(
            mmap(nil, size + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(fenced, size + 2 * page) }
        let anonymous = fenced + page
        try #require(mprotect(anonymous, size, PROT_READ | PROT_WRITE) == 0)
        anonymous.initializeMemory(as: UInt8.self, repeating: 7, count: size)
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) { sum &+= Int(file.load(fromByteOffset: offset, as: UInt8.self)) }
        let fileAddress = UInt(bitPattern: file)
        let anonymousAddress = UInt(bitPattern: anonymous)
        let before = (file: try Self.residentKiB(at: fileAddress), anonymous: try Self.residentKiB(at: anonymousAddress))
        #expect(before.file == 2048 && before.anonymous == 2048, "every page touched: \(before)")

        // Only the test's file: the test bundle's own pages, read back one by one, would
        // slow every test after this one.
        let mapped = URL(fileURLWithPath: path).resolvingSymlinksInPath().path  // as smaps names it
        let advised =
            way == "paged out"
            ? ResidentMemory.pageOutFiles(ResidentMemory.mappings().filter { $0.path == mapped })
            : ResidentMemory.unmapExecutable(ResidentMemory.mappings(), executable: mapped)
        let after = (file: try Self.residentKiB(at: fileAddress), anonymous: try Self.residentKiB(at: anonymousAddress))
        print(
            "ResidentMemory, \(way): \(advised / 1024) KiB of mappings advised; the file \(before.file) → \(after.file) KiB, anonymous \(before.anonymous) → \(after.anonymous) KiB"
        )
        #expect(advised == size, "the file's mapping alone: \(advised) bytes")
        #expect(after.file < before.file / 4, "the file's pages dropped: \(after.file) KiB resident")
        #expect(after.anonymous == before.anonymous, "anonymous memory is not a file's: \(after.anonymous) KiB")
        #expect(Data(bytes: file, count: size) == content, "read back from the file unchanged")
        #expect(anonymous.load(fromByteOffset: size - 1, as: UInt8.self) == 7)
        _ = sum
    }

    @Test(
        "the stack below the caller's frame is released; the frame and what the caller holds stay",
        arguments: ["found in smaps", "found by pthread_getattr_np"])
    func releasesStack(way: String) {
        // Deep recursion touches stack pages; back in the caller, they are below its frame.
        @inline(never) func deep(_ depth: Int) -> Int {
            depth == 0 ? 1 : deep(depth - 1) &+ depth & 1
        }
        let held = [1, 2, 3]
        var local = 42
        let here = UInt(bitPattern: orientd_frame_address())
        #expect(deep(4000) > 0)
        let touched = (try? Self.residentKiB(at: here)) ?? -1
        // The tests run on the concurrency pool's threads, which glibc made.
        let released =
            way == "found in smaps"
            ? ResidentMemory.releaseUnusedStack(ResidentMemory.mappings()) : ResidentMemory.releaseUnusedThreadStack()
        let left = (try? Self.residentKiB(at: here)) ?? -1
        print(
            "ResidentMemory, the stack \(way): this thread's \(touched) → \(left) KiB resident (\(released / 1024) KiB below the frame)"
        )
        #expect(touched > 0 && left >= 4 && left <= touched - 64, "the deep frames' pages released: \(touched) → \(left) KiB")
        local += 1
        #expect(local == 43 && held == [1, 2, 3] && deep(2) > 0)
    }
}
