/// Who sent a control request.
public struct Requester: Hashable, Sendable {
    /// The connection, unique while it lives ("client 3", "standard input"): the owner of
    /// its request.
    public var connection: String
    /// What kind of connection ("stdin", "socket"), as lock events name it.
    public var kind: String

    public init(connection: String, kind: String) {
        self.connection = connection
        self.kind = kind
    }
}
