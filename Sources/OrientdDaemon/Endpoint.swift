import Glibc
import OrientdCore
import SystemPackage

/// One party on the control channel: standard input and output, or a socket client.
/// It may send commands (read side) and receive replies and, once subscribed, events
/// (write side), through a bounded buffer so that a slow reader never holds up others.
final class Endpoint {
    /// What happens when a reader falls `OutboundBuffer.defaultLimit` behind.
    enum OverflowPolicy {
        /// Close the connection: the client sees end of file and can reconnect, and gets
        /// the current state first when it subscribes again. (Socket clients.)
        case disconnect
        /// Drop what is queued; once the reader catches up it gets an `overflow` event
        /// and the current state. (Standard output of `run`, which cannot reconnect.)
        case resync
        /// Hold the source back: once a limit is queued the daemon stops taking events
        /// until the reader catches up, which slows the source down. (Standard output of
        /// `replay`: every event, in order.) Its buffer holds 16 limits, so only what
        /// arrives while the source is held (replies, a burst of commands) could still
        /// overflow it; that is dropped and announced as under `.resync`.
        case backpressure
    }

    let name: String
    /// Named in `lock` events: "stdin" or "socket".
    let origin: String
    var readDescriptor: FileDescriptor?
    let writeDescriptor: FileDescriptor
    let isSocket: Bool
    /// A terminal or a regular file: written with blocking writes (setting O_NONBLOCK on
    /// a terminal would leave the user's shell with a non-blocking terminal).
    let blockingWrites: Bool
    let policy: OverflowPolicy
    var framer = LineFramer()
    var output: OutboundBuffer
    var subscribed: Bool
    var connection = Connection.open
    var delivery = Delivery.inStep
    var consecutiveBadRequests = 0

    /// Where the connection stands.
    enum Connection: Equatable {
        case open
        /// Close once what is queued is written (after `quit`, or a refused input).
        case closingWhenFlushed
        /// Close now: the peer is gone or fell too far behind.
        case closed
    }

    /// Whether the reader gets every line.
    enum Delivery: Equatable {
        case inStep
        /// It fell behind (`.resync`, or `.backpressure` past its buffer): lines are
        /// dropped and counted until it has read what was queued; then an `overflow` event
        /// says how many bytes it missed, and the current state follows.
        case dropping(bytes: Int)
    }

    init(
        name: String, origin: String, read: FileDescriptor?, write: FileDescriptor, isSocket: Bool, blockingWrites: Bool,
        policy: OverflowPolicy, subscribed: Bool
    ) {
        self.name = name
        self.origin = origin
        readDescriptor = read
        writeDescriptor = write
        self.isSocket = isSocket
        self.blockingWrites = blockingWrites
        self.policy = policy
        self.subscribed = subscribed
        output = OutboundBuffer(limit: policy == .backpressure ? 16 * OutboundBuffer.defaultLimit : OutboundBuffer.defaultLimit)
    }

    /// The outcome of a write attempt.
    enum WriteResult: Equatable {
        case ok
        /// The reader is gone (EPIPE, ECONNRESET).
        case gone
        case failed(Errno)
    }

    /// Writes what it can without blocking (or all of it, for blocking writes).
    func flush() -> WriteResult {
        var result = WriteResult.ok
        while !output.isEmpty, result == .ok {
            var wouldBlock = false
            output.drain { bytes in
                do {
                    // Not retried here on EINTR: the loop around tries again.
                    return
                        isSocket
                        ? try writeDescriptor.send(bytes, flags: Int32(MSG_NOSIGNAL | MSG_DONTWAIT), retryOnInterrupt: false)
                        : try writeDescriptor.write(bytes, retryOnInterrupt: false)
                } catch {
                    switch error as? Errno ?? .ioError {
                    case .interrupted: break
                    case .resourceTemporarilyUnavailable: wouldBlock = true
                    case .brokenPipe, .connectionReset: result = .gone
                    case let other: result = .failed(other)
                    }
                    return 0
                }
            }
            if wouldBlock { break }
        }
        return result
    }

    /// Reads what is available; nil at end of input.
    func receive() -> [UInt8]? {
        guard let fd = readDescriptor else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        do {
            let n = try buffer.withUnsafeMutableBytes { bytes in
                isSocket
                    ? try fd.receive(into: bytes, flags: Int32(MSG_DONTWAIT), retryOnInterrupt: false)
                    : try fd.read(into: bytes, retryOnInterrupt: false)
            }
            return n > 0 ? Array(buffer[0..<n]) : nil
        } catch {
            let code = error as? Errno ?? .ioError
            return code == .resourceTemporarilyUnavailable || code == .interrupted ? [] : nil
        }
    }

    var wantsWriteReadiness: Bool { !output.isEmpty && !blockingWrites }

    var isClosed: Bool { connection == .closed }

    /// Closed, or closing and with nothing left to write: its descriptors can go.
    var isFinished: Bool {
        switch connection {
        case .open: false
        case .closingWhenFlushed: output.isEmpty
        case .closed: true
        }
    }

    /// Reads no more requests. A socket client is closed once its replies are written,
    /// unless `keepingSubscription` and it subscribed: a client that closes its sending
    /// side after `monitor` still gets the events.
    func stopReading(keepingSubscription: Bool = false) {
        readDescriptor = nil
        if isSocket, connection == .open, !(keepingSubscription && subscribed) { connection = .closingWhenFlushed }
    }

    func closeDescriptors() {
        if isSocket {
            // Closing a Unix socket with unread requests in it makes the peer's next read
            // fail with ECONNRESET, and the reply that says why it was closed is lost:
            // discard what is waiting first, so the peer reads the reply, then end of file.
            try? writeDescriptor.shutdown(.write)
            var scratch = [UInt8](repeating: 0, count: 4096)
            while scratch.withUnsafeMutableBytes({ bytes in
                (try? writeDescriptor.receive(into: bytes, flags: Int32(MSG_DONTWAIT), retryOnInterrupt: false)) ?? 0
            }) > 0 {}
            try? writeDescriptor.close()
        }
        readDescriptor = nil
    }
}
