/// Cuts a byte stream (a socket, standard input) into command lines, and refuses what a
/// command line cannot be: too long, not UTF-8, binary.
///
/// The limit bounds what one client can make the daemon hold: a line is either complete
/// within `limit` bytes or rejected, and the caller closes that input.
public struct LineFramer: Sendable {
    /// The longest line accepted, newline excluded.
    public let limit: Int
    private var pending: [UInt8] = []
    /// Set once a line overran the limit; nothing more is read from this input.
    public private(set) var overran = false

    public enum Item: Hashable, Sendable {
        case line(String)
        /// A line that is not text; the reason is for the client.
        case invalid(String)
        /// A line longer than `limit`: the input should be closed.
        case tooLong
    }

    public static let defaultLimit = 4096

    public init(limit: Int = LineFramer.defaultLimit) {
        self.limit = limit
    }

    /// Takes the next bytes; returns the items they complete.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Item] {
        guard !overran else { return [] }
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                items.append(Self.item(from: pending))
                pending.removeAll(keepingCapacity: true)
            } else if pending.count >= limit {
                overran = true
                pending = []
                items.append(.tooLong)
                return items
            } else {
                pending.append(byte)
            }
        }
        return items
    }

    /// True when bytes of an unfinished line are waiting for their newline.
    public var hasPartialLine: Bool { !pending.isEmpty }

    private static func item(from bytes: [UInt8]) -> Item {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.contains(where: { $0 < 0x20 && $0 != UInt8(ascii: "\t") || $0 == 0x7f }) {
            return .invalid("binary data (control characters) in the request; requests are lines of text")
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .invalid("the request is not valid UTF-8 text")
        }
        return .line(text)
    }
}
