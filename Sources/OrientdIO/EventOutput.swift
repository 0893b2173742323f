import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole event lines to a file descriptor (standard output by default), one
/// write per line so a consumer never sees half a line, and nothing buffered behind it.
public struct EventOutput: Sendable {
    public let descriptor: FileDescriptor

    /// The consumer closed its end (EPIPE): the run should end quietly.
    public struct ConsumerGone: Error {}

    public init(descriptor: FileDescriptor = .standardOutput) {
        self.descriptor = descriptor
    }

    /// Writes `line` completely. Throws `ConsumerGone` on EPIPE, the `Errno` otherwise.
    public func write(_ line: [UInt8]) throws {
        do {
            _ = try line.withUnsafeBytes { try descriptor.writeAll($0) }
        } catch Errno.brokenPipe {
            throw ConsumerGone()
        }
    }

    /// Makes a closed pipe an error to handle (EPIPE) instead of a silent death by
    /// SIGPIPE, so the daemon can end cleanly and say why.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }
}
