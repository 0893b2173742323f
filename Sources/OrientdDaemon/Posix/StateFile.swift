import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// The persisted state in its directory, replaced atomically: written to a temporary
/// file, flushed with fsync, renamed over the old one, and the directory flushed, so a
/// crash or a power cut at any moment leaves either the old file or the new one.
public struct StateFile: Sendable {
    public let directory: String
    public var path: String { directory + "/state" }

    public init(directory: String) {
        self.directory = directory
    }

    public enum LoadResult: Sendable {
        case none
        case state(PersistedState)
        /// The file is there but unreadable or corrupt; the message names it.
        case unusable(String)
    }

    public func load() -> LoadResult {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: 64 * 1024)
        } catch {
            switch error {
            case .missing: return .none
            case .unreadable(let errno): return .unusable("\(path): cannot read: \(errno)")
            case .tooLarge: return .unusable("\(path): too large to be a state file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unusable("\(path): not UTF-8 text")
        }
        do {
            return .state(try PersistedState(parsing: text, source: path))
        } catch {
            return .unusable(error.description)
        }
    }

    /// Writes `state`; on failure (a full disk, a read-only directory) the old file is
    /// left as it was and the error says which step failed.
    public func save(_ state: PersistedState) throws(Errno) {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw Errno(rawValue: errno) }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        let bytes = Array(state.text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = Errno(rawValue: errno)
                close(fd)
                unlink(temporary)
                throw e
            }
            written += n
        }
        if fsync(fd) != 0 {
            let e = Errno(rawValue: errno)
            close(fd)
            unlink(temporary)
            throw e
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let e = Errno(rawValue: errno)
            unlink(temporary)
            throw e
        }
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }
}
