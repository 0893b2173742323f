import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// Standard input and output as the daemon's loop needs them, and put back as they were.
///
/// Output to a pipe or a socket becomes non-blocking, so a reader that stops reading holds
/// up no one; a terminal or a file keeps blocking writes (a terminal left non-blocking
/// breaks the user's shell). Input becomes non-blocking when there is something to read.
/// The flags belong to the open file, which the shell and other processes share, so
/// `restore()` clears exactly what was set here, whatever happened to the streams since.
struct StandardStreams {
    /// Standard input, when commands are read from it and it can give any.
    let input: FileDescriptor?
    /// Writes to standard output block (a terminal or a regular file).
    let blockingOutput: Bool
    /// Whether standard output is a consumer of the events (`ReadingDemand`).
    let output: ReadingDemand.StandardOutput
    /// The descriptors this made non-blocking.
    private let madeNonBlocking: [FileDescriptor]

    init(readingCommands: Bool) {
        var info = stat()
        let outputOpen = fstat(FileDescriptor.standardOutput.rawValue, &info) == 0
        let type = info.st_mode & S_IFMT
        blockingOutput = !(type == S_IFIFO || type == S_IFSOCK)
        output = Self.kind(ofOutput: outputOpen ? info : nil)
        var input: FileDescriptor? = readingCommands ? .standardInput : nil
        if let fd = input?.rawValue {
            var inInfo = stat()
            // Nothing to read from /dev/null (systemd's default) or a closed descriptor.
            if fstat(fd, &inInfo) != 0 || (inInfo.st_mode & S_IFMT) == S_IFCHR && isatty(fd) == 0 { input = nil }
        }
        self.input = input
        var changed: [FileDescriptor] = []
        for fd in [blockingOutput ? nil : .standardOutput, input].compactMap({ $0 }) {
            let flags = fcntl(fd.rawValue, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK == 0, fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) == 0 { changed.append(fd) }
        }
        madeNonBlocking = changed
    }

    /// What standard output is, from its fstat(2) (nil: closed). The journal is told by
    /// systemd's documented way (`JournalStream`); /dev/null by its device number.
    private static func kind(ofOutput info: stat?) -> ReadingDemand.StandardOutput {
        guard let info else { return .discarded }
        if info.st_mode & S_IFMT == S_IFCHR {
            var null = stat()
            if stat("/dev/null", &null) == 0, null.st_mode & S_IFMT == S_IFCHR, null.st_rdev == info.st_rdev { return .discarded }
        }
        if let journal = Environment.value("JOURNAL_STREAM").flatMap(JournalStream.init),
            journal.matches(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        {
            return .journal
        }
        return .consumer
    }

    /// Clears O_NONBLOCK where `init` set it.
    func restore() {
        for fd in madeNonBlocking {
            let flags = fcntl(fd.rawValue, F_GETFL)
            if flags >= 0 { _ = fcntl(fd.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
        }
    }
}
