import OrientdCore
import Testing

@Suite("Memory mappings from /proc/PID/smaps")
struct MemoryMappingTests {
    // Trimmed from a running `orientd run` (Debian 12, amd64).
    static let smaps = """
        00400000-00513000 r--p 00000000 fe:01 1311009                            /usr/bin/orientd
        Size:               1100 kB
        Rss:                 480 kB
        Anonymous:             0 kB
        VmFlags: rd mr mw me sd
        00513000-00d4d000 r-xp 00113000 fe:01 1311009                            /usr/bin/orientd
        Anonymous:             0 kB
        01319000-013ae000 rw-p 00000000 00:00 0
        Anonymous:           236 kB
        0200e000-02040000 rw-p 00000000 00:00 0                                  [heap]
        Anonymous:           132 kB
        7f2f8c600000-7f2f8c61e000 r--p 00000000 fe:01 917715                     /usr/lib/x86_64-linux-gnu/libicuuc.so.72.1
        Anonymous:             0 kB
        7f2f8c7a4000-7f2f8c7b7000 r--p 001a3000 fe:01 917715                     /usr/lib/x86_64-linux-gnu/libicuuc.so.72.1
        Anonymous:            76 kB
        7f2f8c7b7000-7f2f8c7b8000 rw-p 001b6000 fe:01 917715                     /usr/lib/x86_64-linux-gnu/libicuuc.so.72.1
        Anonymous:             4 kB
        7f2f8d000000-7f2f8d100000 r-xp 00000000 fe:01 42                         /opt/my lib/libx.so (deleted)
        Anonymous:             0 kB
        7ffd2c52f000-7ffd2c550000 rw-p 00000000 00:00 0                          [stack]
        Anonymous:            48 kB
        7ffd2c5f8000-7ffd2c5fa000 r-xp 00000000 00:00 0                          [vdso]
        Anonymous:             0 kB
        """

    @Test("each header starts a mapping; its Anonymous line is its own; a path keeps its spaces")
    func parses() {
        let mappings = MemoryMapping.parse(Self.smaps)
        #expect(mappings.count == 10)
        #expect(
            mappings[0]
                == MemoryMapping(
                    start: 0x40_0000, end: 0x51_3000, permissions: "r--p", path: "/usr/bin/orientd", anonymousKiB: 0, residentKiB: 480))
        #expect(mappings[2].path == nil && mappings[2].anonymousKiB == 236)
        #expect(mappings[3].path == "[heap]" && mappings[3].anonymousKiB == 132)
        #expect(mappings[5].anonymousKiB == 76)
        #expect(mappings[7].path == "/opt/my lib/libx.so (deleted)" && mappings[7].byteCount == 0x10_0000)
    }

    @Test("only a file's pages as read from it may be dropped: not writable, none copied, not bracketed")
    func unmodifiedFiles() {
        let dropped = MemoryMapping.parse(Self.smaps).filter(\.isUnmodifiedFile).map(\.start)
        // The binary's two, libicuuc's text (not its relocated read-only data nor its
        // data), the deleted library's; never the heap, the stack, vdso or anonymous memory.
        #expect(dropped == [0x40_0000, 0x51_3000, 0x7f2f_8c60_0000, 0x7f2f_8d00_0000])
    }

    @Test("lines that are neither a header nor a field are skipped; a field before any header is ignored")
    func garbage() {
        let text = "Anonymous: 4 kB\nnot a mapping\nzz-10 r--p 0 0:0 0 /x\n20-10 r--p 0 0:0 0 /y\n10-20 r--p 0 0:0 0 /z\nAnonymous: x kB\n"
        #expect(MemoryMapping.parse(text) == [MemoryMapping(start: 0x10, end: 0x20, permissions: "r--p", path: "/z", anonymousKiB: 0)])
        #expect(MemoryMapping.parse("").isEmpty)
    }
}
