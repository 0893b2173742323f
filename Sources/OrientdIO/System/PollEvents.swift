import Glibc

/// What a descriptor is watched for, and what poll(2) says happened to it.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// Always reported, never asked for: an error, or (for a pipe's write end) its
    /// reader gone.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// Always reported, never asked for: the other end closed.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// Always reported, never asked for: the descriptor is not open.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}
