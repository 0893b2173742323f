import CLinux
import Glibc
import SystemPackage

/// Unix stream sockets for the control channel: the daemon's listener and `ctl`'s
/// connection. Descriptors are close-on-exec, so hooks never inherit a client.
public enum UnixSocket {
    /// Why a socket could not be set up, in words that say what to do.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        /// The system's error, when a system call failed (OrientdClientError reads what
        /// a failed connect means from it).
        public var code: Errno?
    }

    static func address(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw Failure(description: "\(path): a socket path must be 1 to \(capacity - 1) bytes long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    static func newSocket() throws(Failure) -> FileDescriptor {
        do {
            return try FileDescriptor.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        } catch {
            throw Failure(description: "cannot create a socket: \(error)")
        }
    }

    /// Connects to `path`; the descriptor is blocking.
    public static func connect(to path: String) throws(Failure) -> FileDescriptor {
        var address = try address(path)
        let fd = try newSocket()
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard r == 0 else {
            let code = Errno(rawValue: errno)
            try? fd.close()
            throw Failure(description: "cannot connect to \(path): \(code)", code: code)
        }
        return fd
    }

    static func bind(_ fd: FileDescriptor, _ address: inout sockaddr_un) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}

/// The daemon's listening socket. Created owner-only (the umask is tightened around
/// bind(2), before any other thread exists, so there is no moment when anybody else
/// could connect), then opened to `mode` and `group`. A socket file left by a crashed run
/// is replaced; a live daemon on the same path, or a file that is not a socket, is not.
public final class UnixListener {
    public let descriptor: FileDescriptor
    public let path: String
    private let inode: ino_t

    public init(path: String, mode: mode_t = 0o660, group: gid_t? = nil) throws(UnixSocket.Failure) {
        var address = try UnixSocket.address(path)
        let fd = try UnixSocket.newSocket()
        func fail(_ message: String) -> UnixSocket.Failure {
            try? fd.close()
            return UnixSocket.Failure(description: message)
        }
        let oldMask = umask(0o177)
        var r = UnixSocket.bind(fd, &address)
        if r != 0 && errno == EADDRINUSE {
            var info = stat()
            if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFSOCK {
                umask(oldMask)
                throw fail("\(path) exists and is not a socket; not replacing it (choose another --socket path)")
            }
            if let live = try? UnixSocket.connect(to: path) {
                try? live.close()
                umask(oldMask)
                throw fail("another orientd is already listening on \(path) (orientd ctl --socket \(path) status)")
            }
            // Nobody answers: a socket left behind by a run that crashed.
            unlink(path)
            r = UnixSocket.bind(fd, &address)
        }
        let bindError = errno
        umask(oldMask)
        guard r == 0 else { throw fail("cannot listen on \(path): \(Errno(rawValue: bindError))") }
        // No chown when the socket already has the group (it is created with the
        // process's group: under the shipped unit, Group=orientd). chown(2) is in
        // systemd's @privileged set, which the unit's system-call filter denies.
        var created = stat()
        let hasGroup = lstat(path, &created) == 0 && created.st_gid == group
        if let group, !hasGroup, chown(path, uid_t.max, group) != 0 {
            let e = Errno(rawValue: errno)
            unlink(path)
            throw fail(
                "cannot give \(path) to group \(group): \(e); the daemon must run as a member of the group "
                    + "(under systemd: Group= or SupplementaryGroups=, with chown allowed by SystemCallFilter= "
                    + "and the group mapped, i.e. PrivateUsers=no)")
        }
        guard chmod(path, mode) == 0 else {
            let e = Errno(rawValue: errno)
            unlink(path)
            throw fail("cannot set the mode of \(path): \(e)")
        }
        guard listen(fd.rawValue, 128) == 0 else {
            let e = Errno(rawValue: errno)
            unlink(path)
            throw fail("cannot listen on \(path): \(e)")
        }
        _ = fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) | O_NONBLOCK)
        var info = stat()
        stat(path, &info)
        descriptor = fd
        self.path = path
        inode = info.st_ino
    }

    /// A waiting connection, non-blocking and close-on-exec; nil when none is waiting.
    /// (accept4 is not exported to Swift; the flags are set right after, which is safe
    /// because the same thread is the only one that starts hooks.)
    public func accept() -> FileDescriptor? {
        guard let fd = try? descriptor.accept(retryOnInterrupt: false) else { return nil }
        _ = fcntl(fd.rawValue, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) | O_NONBLOCK)
        return fd
    }

    deinit {
        try? descriptor.close()
        // Remove the socket file only if it is still ours (not one a newer run made).
        var info = stat()
        if stat(path, &info) == 0 && info.st_ino == inode { unlink(path) }
    }
}

extension UnixSocket {
    /// The group id of a group name (or a number).
    public static func groupID(_ name: String) -> gid_t? {
        if let number = gid_t(name) { return number }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}
