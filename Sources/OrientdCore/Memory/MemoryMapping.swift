/// One mapping of a process's memory as `/proc/PID/maps` and `smaps` list it: its address range,
/// permissions, what backs it, and how many of its resident pages are anonymous (never
/// read from a file, or copied on a write).
public struct MemoryMapping: Hashable, Sendable {
    public var start: UInt
    public var end: UInt
    /// As the kernel prints them: `r-xp`, `rw-p`.
    public var permissions: String
    /// A file's path, a name in brackets (`[heap]`, `[stack]`, `[vdso]`), or nil.
    public var path: String?
    public var anonymousKiB: Int
    /// Resident pages in all, from `smaps`' `Rss:` line (0 from `maps`).
    public var residentKiB: Int

    public init(start: UInt, end: UInt, permissions: String, path: String?, anonymousKiB: Int, residentKiB: Int = 0) {
        self.start = start
        self.end = end
        self.permissions = permissions
        self.path = path
        self.anonymousKiB = anonymousKiB
        self.residentKiB = residentKiB
    }

    public var byteCount: UInt { end - start }

    /// A file's pages exactly as read from it, which the kernel can drop and read again
    /// without losing anything: backed by a file, not writable, and no page of it copied
    /// on a write (a library's relocated read-only data is, and those pages would go to
    /// swap instead).
    public var isUnmodifiedFile: Bool {
        path?.first == "/" && permissions.dropFirst().first != "w" && anonymousKiB == 0
    }

    /// The mappings of `maps` or `smaps`, in their order. A mapping's line is
    /// `start-end perms offset device inode [path]`; in `smaps`, `Key: value kB` lines follow;
    /// a line that is neither is skipped, and a mapping without an `Anonymous:` or
    /// `Rss:` line counts none.
    public static func parse(_ text: String) -> [MemoryMapping] {
        var mappings: [MemoryMapping] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.last == ":" {
                guard fields.count >= 2, let kib = Int(fields[1]), !mappings.isEmpty else { continue }
                switch first {
                case "Anonymous:": mappings[mappings.count - 1].anonymousKiB = kib
                case "Rss:": mappings[mappings.count - 1].residentKiB = kib
                default: break
                }
                continue
            }
            let bounds = first.split(separator: "-")
            guard fields.count >= 5, bounds.count == 2, let start = UInt(bounds[0], radix: 16),
                let end = UInt(bounds[1], radix: 16), start < end
            else { continue }
            let path = fields.count == 6 ? String(fields[5].drop { $0 == " " }) : nil
            mappings.append(
                MemoryMapping(
                    start: start, end: end, permissions: String(fields[1]), path: path?.isEmpty == false ? path : nil,
                    anonymousKiB: 0))
        }
        return mappings
    }
}
