import SystemPackage

/// Small files read or written whole: the configuration file, the saved lock, scenarios,
/// sysfs attributes, a chart. One reader, so that every caller retries interrupted reads
/// (swift-system's default) and bounds the size the same way.
public enum WholeFile {
    public enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        case unreadable(Errno)
        /// Larger than the caller's limit: not the kind of file it expects.
        case tooLarge(limit: Int)
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            let errno = error as? Errno ?? .ioError
            throw errno == .noSuchFileOrDirectory ? .missing : .unreadable(errno)
        }
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 65536))
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw .unreadable(error as? Errno ?? .ioError)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// Writes `bytes` to `path`, created (mode 0644 before the umask) or truncated.
    public static func write(_ bytes: [UInt8], to path: String) throws(Errno) {
        do {
            let file = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try file.writeAll(bytes) }
        } catch {
            throw error as? Errno ?? .ioError
        }
    }
}
