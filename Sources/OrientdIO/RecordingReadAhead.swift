import OrientdCore
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and parses a recording file on a thread of its own, a few batches ahead of the
/// thread that classifies it: `replay --fast` then takes the longer of the two stages
/// instead of their sum. The events come in the reader's order, the failure that ended
/// the read after them, so what the consumer sees is what `RecordingReader.read` gives.
///
/// Only for a regular file: its reads never wait for a writer, so a batch is never held
/// back waiting to fill while samples are late (a pipe on standard input may be a live
/// `orientd record`).
public final class RecordingReadAhead: Sendable {
    /// Events handed over at once: one lock and at most one wake-up per batch.
    static let batchSize = 4096
    /// Batches parsed and not yet taken: the producer waits beyond this, so memory is
    /// bounded whatever the file's length (4 × 4096 samples of 32 bytes).
    static let depth = 4

    /// A run of events: the plain samples packed (no reference counting to copy them),
    /// the rest (the header, warnings, labelled samples) with the place they come before.
    private struct Batch: Sendable {
        var samples: [Sample] = []
        var others: [(before: Int, event: RecordingReader.Event)] = []
        var count: Int { samples.count + others.count }
    }

    private struct State {
        var batches: [Batch] = []
        /// How the read ended, once it has: success for the end of input, or what it threw.
        var end: Result<Void, any Error>?
        /// The consumer stopped early: the producer stops too.
        var abandoned = false
    }

    private let state = Mutex(State())
    /// Rung by the producer when a batch or the end is there and the consumer may wait.
    private let filled: WakeUp
    /// Rung by the consumer when the queue is half empty and the producer may wait.
    private let emptied: WakeUp

    /// Starts reading `reader` on a new thread, which closes it when done.
    public init(_ reader: RecordingReader) throws(Errno) {
        filled = try WakeUp()
        emptied = try WakeUp()
        let ahead = self
        BackgroundThread.start {
            defer { reader.close() }
            ahead.produce(reader)
        }
    }

    private func produce(_ reader: RecordingReader) {
        var batch = Batch()
        batch.samples.reserveCapacity(Self.batchSize)
        let end: Result<Void, any Error> = Result {
            try reader.read { event in
                if case .sample(let sample, nil) = event {
                    batch.samples.append(sample)
                } else {
                    batch.others.append((batch.samples.count, event))
                }
                guard batch.count >= Self.batchSize else { return .proceed }
                defer {
                    batch = Batch()
                    batch.samples.reserveCapacity(Self.batchSize)
                }
                return hand(batch) ? .proceed : .stop
            }
        }
        if batch.count > 0, !hand(batch) { return }
        state.withLock { $0.end = end }
        filled.signal()
    }

    /// Queues `batch`, waiting while `depth` are queued; false when the consumer is gone.
    private func hand(_ batch: Batch) -> Bool {
        while true {
            let queued: (kept: Bool, ring: Bool)? = state.withLock { state in
                if state.abandoned { return (false, false) }
                guard state.batches.count < Self.depth else { return nil }
                state.batches.append(batch)
                return (true, state.batches.count == 1)
            }
            if let queued {
                if queued.ring { filled.signal() }
                return queued.kept
            }
            _ = emptied.wait(seconds: 1)
            emptied.drain()
        }
    }

    /// Calls `handle` for each event in order, then throws what ended the read, as
    /// `RecordingReader.read` does. Returning `.stop` ends the producer too.
    public func read(_ handle: (RecordingReader.Event) throws -> LineReader.Next) throws {
        defer {
            state.withLock { $0.abandoned = true }
            emptied.signal()
        }
        while true {
            // A full queue rings the producer once it is down to half: a wake-up for
            // every second batch, not for each.
            let (batch, end, ring): (Batch?, Result<Void, any Error>?, Bool) = state.withLock { state in
                guard !state.batches.isEmpty else { return (nil, state.end, false) }
                let batch = state.batches.removeFirst()
                return (batch, nil, state.batches.count == Self.depth / 2)
            }
            guard let batch else {
                if let end { return try end.get() }
                _ = filled.wait(seconds: 1)
                filled.drain()
                continue
            }
            if ring { emptied.signal() }
            var next = 0
            for (index, sample) in batch.samples.enumerated() {
                while next < batch.others.count, batch.others[next].before == index {
                    if try handle(batch.others[next].event) == .stop { return }
                    next += 1
                }
                if try handle(.sample(sample, expect: nil)) == .stop { return }
            }
            for other in batch.others[next...] where try handle(other.event) == .stop { return }
        }
    }
}
