import Glibc
import OrientdCore
import SystemPackage

/// `orientd ctl`'s side of the socket: sends one request, reads lines back.
public final class ControlClient {
    public let path: String
    /// The connected socket, for callers that poll many clients at once.
    public let descriptor: Int32
    private var buffered: [UInt8] = []

    public init(path: String) throws(UnixSocket.Failure) {
        self.path = path
        descriptor = try UnixSocket.connect(to: path)
    }

    deinit { close(descriptor) }

    public func send(_ request: String) throws(Errno) {
        try send(bytes: Array((request + "\n").utf8))
    }

    /// Sends bytes as they are (no newline added).
    public func send(bytes: [UInt8]) throws(Errno) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Errno(rawValue: errno)
            }
            sent += n
        }
    }

    /// Says "no more requests" (the reading side stays open for replies).
    public func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The next line, newline included; nil at end of file. `timeout` in seconds, nil
    /// to wait for ever.
    public func readLine(timeout: Double? = nil) throws(Errno) -> [UInt8]? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[...newline])
                buffered.removeSubrange(...newline)
                return line
            }
            var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, timeout.map { Int32($0 * 1000) } ?? -1)
            if r < 0 {
                if errno == EINTR { continue }
                throw Errno(rawValue: errno)
            }
            if r == 0 { throw Errno.timedOut }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(descriptor, &chunk, chunk.count, 0)
            if n < 0 {
                if errno == EINTR { continue }
                throw Errno(rawValue: errno)
            }
            if n == 0 {
                if buffered.isEmpty { return nil }
                defer { buffered = [] }
                return buffered
            }
            buffered += chunk[0..<n]
        }
    }
}
