import OrientdCore
import OrientdIO

/// A recording as the virtual sensor plays it: its samples (raw, before the mount matrix,
/// as a sensor reports them) on the recording's own clock, and where playing has got to.
struct Playback {
    let header: RecordingHeader
    let samples: [Sample]
    /// Plays again from the start after the end (for hot-plug and soak runs).
    let loops: Bool
    /// CLOCK_MONOTONIC at which the first sample is due; nil until playing starts.
    private(set) var start: Double?
    /// How many times the recording has been started over.
    private(set) var round = 0

    /// Reads the whole recording; the parser's warnings go to `warn` with FILE:LINE.
    init(path: String, loops: Bool, warn: (String) -> Void) throws(VirtualDeviceError) {
        let reader: RecordingReader
        do { reader = try RecordingReader(path: path) } catch { throw VirtualDeviceError(error.description) }
        defer { reader.close() }
        var header = RecordingHeader()
        var samples: [Sample] = []
        do {
            try reader.read { event in
                switch event {
                case .header(let h, _, _): header = h
                case .sample(let sample, _): samples.append(sample)
                case .warning(let issue): warn("\(issue)")
                }
                return .proceed
            }
        } catch {
            throw VirtualDeviceError("\(error)")
        }
        guard !samples.isEmpty else { throw VirtualDeviceError("\(path): the recording has no samples") }
        self.header = header
        self.samples = samples
        self.loops = loops
    }

    var hasStarted: Bool { start != nil }
    var firstTime: Double { samples[0].time }
    var duration: Double { samples[samples.count - 1].time - firstTime }
    /// The recording's typical spacing, for the last sample's lifetime and for deciding
    /// whether a report interval is slower than the recording.
    var spacing: Double {
        if let rate = header.rate, rate > 0 { return 1 / rate }
        return samples.count > 1 ? max(duration / Double(samples.count - 1), 0.001) : 0.02
    }

    mutating func begin(at now: Double) {
        start = now
    }

    /// When sample `index` of the current round is due on CLOCK_MONOTONIC.
    func due(_ index: Int) -> Double? {
        guard let start, index < samples.count else { return nil }
        return start + (samples[index].time - firstTime)
    }

    /// The newest sample due at `now` (the first before playing starts), and its index.
    func current(at now: Double) -> (index: Int, sample: Sample) {
        guard let start else { return (0, samples[0]) }
        let elapsed = now - start + firstTime
        var low = 0
        var high = samples.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if samples[mid].time <= elapsed { low = mid } else { high = mid - 1 }
        }
        return (low, samples[low])
    }

    /// The recording's clock at `now` (its first timestamp before playing starts).
    func recordingTime(at now: Double) -> Double {
        start.map { now - $0 + firstTime } ?? firstTime
    }

    /// The newest sample at `time` on the recording's clock.
    func sample(at time: Double) -> Sample {
        current(at: (start ?? 0) + time - firstTime).sample
    }

    /// Past the last sample's lifetime: the recording has ended (or, looping, a new round
    /// begins: `rewind` says whether it did).
    func hasEnded(at now: Double) -> Bool {
        guard let start else { return false }
        return now >= start + duration + spacing
    }

    mutating func rewind(at now: Double) {
        start = now
        round += 1
    }
}
