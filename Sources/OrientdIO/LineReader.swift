import SystemPackage

/// Reads a file descriptor in large chunks and hands out its lines without copying.
///
/// Memory is bounded whatever the input: a line longer than `maximumLineLength` is cut,
/// reported through `overlong`, and the rest of it skipped up to the next newline.
public struct LineReader {
    public let descriptor: FileDescriptor
    public let maximumLineLength: Int
    private let chunkSize: Int

    public init(descriptor: FileDescriptor, maximumLineLength: Int = 4096, chunkSize: Int = 1 << 18) {
        self.descriptor = descriptor
        self.maximumLineLength = maximumLineLength
        self.chunkSize = max(chunkSize, maximumLineLength * 2)
    }

    /// What to do after a line.
    public enum Next { case proceed, stop }

    /// Calls `line` for each line (without `\n`), and `overlong` for each line cut at the
    /// limit, until the end of input or until a callback says stop.
    /// Throws the `Errno` of a failed read.
    public func forEachLine(
        _ line: (UnsafeBufferPointer<UInt8>) throws -> Next,
        overlong: () throws -> Next
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        let bytes = buffer.bindMemory(to: UInt8.self)
        var filled = 0  // bytes in the buffer not yet handed out
        var skippingOverlong = false
        while true {
            let count = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 {
                if filled > 0, !skippingOverlong {
                    _ = try line(UnsafeBufferPointer(rebasing: bytes[0..<filled]))
                }
                return
            }
            let end = filled + count
            var start = 0
            var index = filled
            while let newline = Self.find(UInt8(ascii: "\n"), in: bytes, from: index, to: end) {
                if skippingOverlong {
                    skippingOverlong = false
                } else if newline - start > maximumLineLength {
                    if try overlong() == .stop { return }
                } else if try line(UnsafeBufferPointer(rebasing: bytes[start..<newline])) == .stop {
                    return
                }
                start = newline + 1
                index = start
            }
            // Keep the unfinished line at the front of the buffer.
            let rest = end - start
            if skippingOverlong {
                filled = 0
            } else if rest > maximumLineLength {
                skippingOverlong = true
                filled = 0
                if try overlong() == .stop { return }
            } else {
                if start > 0, rest > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: buffer[0..<rest])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                }
                filled = rest
            }
        }
    }

    @inline(__always)
    private static func find(_ byte: UInt8, in bytes: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        // memchr is vectorised in glibc; a Swift loop is several times slower here.
        guard let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
