#if canImport(Glibc)
    import Glibc
#endif

/// What a symbolic link points to (`readlink(2)`): sysfs names a device's subsystem and
/// driver by links, and `/proc/self/exe` names the running program.
public enum SymbolicLink {
    /// The link's target as stored, or nil when `path` is no link or cannot be read.
    public static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
