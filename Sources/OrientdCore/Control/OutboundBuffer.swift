/// The bytes waiting to be written to one consumer, with a bound: a consumer that stops
/// reading must not make the daemon grow without limit or wait for it.
///
/// Whole lines only: `enqueue` refuses a line that would cross the bound, so what was
/// queued can always be written out as complete JSON lines.
public struct OutboundBuffer: Sendable {
    public let limit: Int
    private var storage: [UInt8] = []
    private var start = 0

    public static let defaultLimit = 64 * 1024

    public init(limit: Int = OutboundBuffer.defaultLimit) {
        self.limit = limit
    }

    public var count: Int { storage.count - start }
    public var isEmpty: Bool { count == 0 }

    /// Queues `line`; false (and nothing queued) if it would exceed the bound.
    public mutating func enqueue(_ line: [UInt8]) -> Bool {
        guard count + line.count <= limit else { return false }
        if start > 0, start >= storage.count / 2 {
            storage.removeSubrange(0..<start)
            start = 0
        }
        storage.append(contentsOf: line)
        return true
    }

    /// Calls `body` with the unwritten bytes; it returns how many it wrote.
    public mutating func drain(_ body: (UnsafeRawBufferPointer) -> Int) {
        guard !isEmpty else { return }
        let written = storage[start...].withUnsafeBytes(body)
        start += max(0, min(written, count))
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 4096)
            start = 0
        }
    }

    /// Drops everything queued; returns how many bytes were dropped.
    @discardableResult
    public mutating func removeAll() -> Int {
        let dropped = count
        storage = []
        start = 0
        return dropped
    }
}
