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
    /// left as it was and the error says which step failed. Written whole to a temporary
    /// file, synced, then renamed over the old one, and the directory synced, so a crash
    /// leaves the old lock or the new one, never half of one. swift-system has no fsync,
    /// rename or mkdir: those are the C calls.
    public func save(_ state: PersistedState) throws(Errno) {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw Errno(rawValue: errno) }
        let temporary = path + ".new"
        do {
            let file = try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter {
                _ = try file.writeAll(state.text.utf8)
                if fsync(file.rawValue) != 0 { throw Errno(rawValue: errno) }
            }
        } catch {
            unlink(temporary)
            throw error as? Errno ?? .ioError
        }
        guard rename(temporary, path) == 0 else {
            let e = Errno(rawValue: errno)
            unlink(temporary)
            throw e
        }
        if let directory = try? FileDescriptor.open(FilePath(directory), .readOnly, options: [.directory, .closeOnExec]) {
            fsync(directory.rawValue)
            try? directory.close()
        }
    }
}
