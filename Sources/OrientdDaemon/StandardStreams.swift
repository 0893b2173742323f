import Glibc

/// Standard input and output as the daemon's loop needs them, and put back as they were.
///
/// Output to a pipe or a socket becomes non-blocking, so a reader that stops reading holds
/// up no one; a terminal or a file keeps blocking writes (a terminal left non-blocking
/// breaks the user's shell). Input becomes non-blocking when there is something to read.
/// The flags belong to the open file, which the shell and other processes share, so
/// `restore()` clears exactly what was set here, whatever happened to the streams since.
struct StandardStreams {
    /// Standard input, when commands are read from it and it can give any.
    let input: Int32?
    /// Writes to standard output block (a terminal or a regular file).
    let blockingOutput: Bool
    /// The descriptors this made non-blocking.
    private let madeNonBlocking: [Int32]

    init(readingCommands: Bool) {
        var info = stat()
        fstat(1, &info)
        let type = info.st_mode & S_IFMT
        blockingOutput = !(type == S_IFIFO || type == S_IFSOCK)
        var input: Int32? = readingCommands ? 0 : nil
        if input != nil {
            var inInfo = stat()
            // Nothing to read from /dev/null (systemd's default) or a closed descriptor.
            if fstat(0, &inInfo) != 0 || (inInfo.st_mode & S_IFMT) == S_IFCHR && isatty(0) == 0 { input = nil }
        }
        self.input = input
        var changed: [Int32] = []
        for fd in [blockingOutput ? nil : 1, input].compactMap({ $0 }) {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK == 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 { changed.append(fd) }
        }
        madeNonBlocking = changed
    }

    /// Clears O_NONBLOCK where `init` set it.
    func restore() {
        for fd in madeNonBlocking {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
    }
}
