/// How a reader treats reads that keep failing (EIO from a sensor that went bad, a
/// garbled value): it retries with a back-off that doubles up to a second, and it speaks
/// up on the first failure, once the failing has lasted a second, on every hundredth,
/// and when reading works again, so a broken sensor is never silent for long and never
/// floods the log. Shared by the polled and the buffered paths.
public struct ReadFailures: Sendable {
    /// Seconds between attempts while all is well.
    public let interval: Double
    public private(set) var count = 0
    private var since: Double?
    private var reportedPersistent = false

    public init(interval: Double) {
        self.interval = interval
    }

    /// What to say about a failure or a recovery; nil when nothing is worth saying.
    public enum Report: Hashable, Sendable {
        case failed(count: Int)
        case persisting(count: Int)
        case recovered(afterFailures: Int)
    }

    /// A read failed at `now` (seconds).
    public mutating func failed(at now: Double) -> Report? {
        count += 1
        let start = since ?? now
        since = start
        if count == 1 || count % 100 == 0 { return .failed(count: count) }
        if now - start >= 1, !reportedPersistent {
            reportedPersistent = true
            return .persisting(count: count)
        }
        return nil
    }

    /// A read worked.
    public mutating func succeeded() -> Report? {
        defer {
            count = 0
            since = nil
            reportedPersistent = false
        }
        return count > 0 && reportedPersistent ? .recovered(afterFailures: count) : nil
    }

    /// Seconds to wait before the next attempt: the interval, doubled for each failure
    /// in a row, at most a second (but never less than the interval).
    public var delay: Double {
        guard count > 0 else { return interval }
        return max(interval, min(1, interval * Double(1 << min(count, 20))))
    }

    /// The words for a report about `error` on `device`.
    public static func message(_ report: Report, error: String, device: String) -> String {
        switch report {
        case .failed(let count): "\(error) (\(count) failed reads so far; retrying)"
        case .persisting(let count): "\(error): reads have failed for over a second (\(count) tries); still retrying"
        case .recovered(let count): "\(device): reading again after \(count) failed reads"
        }
    }
}
