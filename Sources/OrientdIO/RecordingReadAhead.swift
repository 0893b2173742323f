import OrientdCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and parses a recording file on a thread of its own, a few batches ahead of the
/// thread that uses the events: `replay --fast` and `evaluate` then take the longer of the
/// two stages instead of their sum. The events come in the reader's order, the failure
/// that ended the read after them: what the caller sees is what `RecordingReader.read`
/// gives. `RecordingReader.readAhead` is the way in.
final class RecordingReadAhead: Sendable {
    /// Events handed over at once: one lock and at most one wake-up per batch.
    static let batchSize = 4096
    /// Batches parsed and not yet taken: the producer waits beyond this, so memory is
    /// bounded whatever the file's length (a batch of samples is 160 KiB).
    static let depth = 4

    /// A run of events: the samples packed, with their labels (nothing reference counted
    /// to copy), the rest (the header, warnings) with the place of the sample they precede.
    private struct Batch: Sendable {
        var samples: [(sample: Sample, expect: PoseLabel?)] = []
        var others: [(before: Int, event: RecordingReader.Event)] = []
        var count: Int { samples.count + others.count }

        init() { samples.reserveCapacity(RecordingReadAhead.batchSize) }
    }

    private struct State {
        var batches: [Batch] = []
        /// How the read ended, once it has: success for the end of input, or what it threw.
        var end: Result<Void, any Error>?
        /// The consumer stopped early: the producer stops too.
        var abandoned = false
        /// The producer has returned: nothing of it touches the reader any more.
        var producerDone = false
    }

    private let state = Guarded(State())
    /// Rung by the producer when a batch or the end is there, and when it has returned.
    private let filled: WakeUp
    /// Rung by the consumer when the queue is down to half, and when it stops.
    private let emptied: WakeUp

    /// Throws when no eventfd can be made for the two threads (out of descriptors).
    init() throws(Errno) {
        filled = try WakeUp()
        emptied = try WakeUp()
    }

    /// Reads `reader` to its end on another thread while `handle` takes its events on
    /// this one; returns (or throws) once that thread no longer uses the reader. With no
    /// thread to be had, reads on this one.
    func read(_ reader: RecordingReader, _ handle: (RecordingReader.Event) throws -> LineReader.Next) throws {
        do {
            try BackgroundThread.start(name: "read-ahead") { self.produce(reader) }
        } catch {
            return try reader.read(handle)
        }
        defer { abandon() }
        try consume(handle)
    }

    private func produce(_ reader: RecordingReader) {
        var batch = Batch()
        let end: Result<Void, any Error> = Result {
            try reader.read { event in
                if case .sample(let sample, let expect) = event {
                    batch.samples.append((sample, expect))
                } else {
                    batch.others.append((batch.samples.count, event))
                }
                guard batch.count >= Self.batchSize else { return .proceed }
                defer { batch = Batch() }
                return hand(batch) ? .proceed : .stop
            }
        }
        if batch.count == 0 || hand(batch) { state.withLock { $0.end = end } }
        state.withLock { $0.producerDone = true }
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

    private func consume(_ handle: (RecordingReader.Event) throws -> LineReader.Next) throws {
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
            for (index, item) in batch.samples.enumerated() {
                while next < batch.others.count, batch.others[next].before == index {
                    if try handle(batch.others[next].event) == .stop { return }
                    next += 1
                }
                if try handle(.sample(item.sample, expect: item.expect)) == .stop { return }
            }
            for other in batch.others[next...] where try handle(other.event) == .stop { return }
        }
    }

    /// Stops the producer, if it still runs, and waits until it has returned.
    private func abandon() {
        state.withLock { $0.abandoned = true }
        emptied.signal()
        while !state.withLock({ $0.producerDone }) {
            _ = filled.wait(seconds: 1)
            filled.drain()
        }
    }
}
