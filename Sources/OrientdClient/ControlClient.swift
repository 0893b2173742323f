import Glibc
import OrientdIO
import SystemPackage

/// One connection to the daemon's control socket, a line at a time, blocking: what
/// `orientd ctl` and `orientd monitor` use, what `ScreenOrientation` runs its session on,
/// and what tests use to send the daemon anything at all, garbage included.
public final class ControlClient {
    public let path: String
    /// The connected socket, for callers that poll many clients at once.
    public let descriptor: FileDescriptor
    private var buffered: [UInt8] = []

    public init(path: String) throws(OrientdClientError) {
        self.path = path
        do {
            descriptor = try UnixSocket.connect(to: path)
        } catch {
            throw OrientdClientError(connecting: path, error)
        }
    }

    deinit { try? descriptor.close() }

    public func send(_ request: String) throws(Errno) {
        try send(bytes: Array((request + "\n").utf8))
    }

    /// Sends bytes as they are (no newline added).
    public func send(bytes: [UInt8]) throws(Errno) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { chunk in
                Result { () throws(Errno) in try descriptor.send(chunk, flags: Int32(MSG_NOSIGNAL)) }
            }
            sent += try result.get()
        }
    }

    /// Says "no more requests" (the reading side stays open for replies).
    public func shutdownWrite() {
        try? descriptor.shutdown(.write)
    }

    /// The next line, newline included; nil at end of file. `timeout` in seconds, nil
    /// to wait for ever; `Errno.timedOut` when it passes.
    public func readLine(timeout: Double? = nil) throws(Errno) -> [UInt8]? {
        while true {
            if let line = takeLine() { return line }
            var p = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, timeout.map { Int32($0 * 1000) } ?? -1)
            if r < 0 {
                if errno == EINTR { continue }
                throw Errno(rawValue: errno)
            }
            if r == 0 { throw Errno.timedOut }
            guard try receive() else {
                if buffered.isEmpty { return nil }
                defer { buffered = [] }
                return buffered
            }
        }
    }

    /// The whole lines that have arrived, without waiting; nil once the daemon has
    /// closed the connection and every line is taken (a last line without a newline is
    /// given as it is).
    public func availableLines() throws(Errno) -> [[UInt8]]? {
        var open = true
        var p = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 0) > 0 { open = try receive() }
        var lines: [[UInt8]] = []
        while let line = takeLine() { lines.append(line) }
        if !open {
            if !buffered.isEmpty { lines.append(buffered) }
            buffered = []
            return lines.isEmpty ? nil : lines
        }
        return lines
    }

    private func takeLine() -> [UInt8]? {
        guard let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Array(buffered[...newline])
        buffered.removeSubrange(...newline)
        return line
    }

    /// One read into the buffer; false at end of file.
    private func receive() throws(Errno) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n: Int
        do {
            n = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        } catch {
            // swift-system's read throws only Errno.
            throw error as? Errno ?? .ioError
        }
        buffered += chunk[0..<n]
        return n > 0
    }
}
