import OrientdCore

/// The figures by which a classifier is compared across recordings: how many holds it
/// reached and how fast, how much of the held time it was right, and how often it changed
/// its answer while the device was held still. Figures add up across recordings, so a
/// directory of recordings is summed into one line.
public struct EvaluationFigures: Hashable, Sendable {
    /// Stretches labelled with a state (not `stable`).
    public var holds = 0
    /// Holds whose state was never reported.
    public var missed = 0
    /// Latency of every hold that was reached, in seconds.
    public var latencies: [Double] = []
    /// Samples in holds, and those whose reported state was the label.
    public var holdSamples = 0
    public var matchingSamples = 0
    /// Changes of the reported state inside a hold after it was reached, or inside a
    /// `stable` stretch after it settled: each is one a user sees for no reason.
    public var spuriousChanges = 0
    /// Seconds of holds and `stable` stretches: the time during which the device was held.
    public var heldSeconds = 0.0
    /// Seconds while the device moved (don't-care stretches), and the changes then: how
    /// busy the screen is while the device is handled or turned.
    public var motionSeconds = 0.0
    public var motionChanges = 0

    public init() {}

    public init<State>(_ result: StretchEvaluator<State>.Result) {
        motionSeconds = result.motionSeconds
        motionChanges = result.motionChanges
        for stretch in result.stretches {
            heldSeconds += stretch.duration
            spuriousChanges += stretch.changesAfterSettling
            guard stretch.isHold else { continue }
            holds += 1
            holdSamples += stretch.samples
            matchingSamples += stretch.matchingSamples
            if let latency = stretch.latency { latencies.append(latency) } else { missed += 1 }
        }
    }

    public static func + (a: Self, b: Self) -> Self {
        var sum = a
        sum.holds += b.holds
        sum.missed += b.missed
        sum.latencies += b.latencies
        sum.holdSamples += b.holdSamples
        sum.matchingSamples += b.matchingSamples
        sum.spuriousChanges += b.spuriousChanges
        sum.heldSeconds += b.heldSeconds
        sum.motionSeconds += b.motionSeconds
        sum.motionChanges += b.motionChanges
        return sum
    }

    /// The fraction of samples in holds whose state was the label; nil without holds.
    public var accuracy: Double? { holdSamples > 0 ? Double(matchingSamples) / Double(holdSamples) : nil }

    /// Spurious changes per hour of held time; nil when nothing was held.
    public var spuriousPerHour: Double? { heldSeconds > 0 ? Double(spuriousChanges) / (heldSeconds / 3600) : nil }

    /// Changes per minute of motion; nil when nothing moved.
    public var motionChangesPerMinute: Double? { motionSeconds > 0 ? Double(motionChanges) / (motionSeconds / 60) : nil }

    public var medianLatency: Double? { percentile(0.5) }
    public var p95Latency: Double? { percentile(0.95) }

    /// The nearest-rank percentile of the latencies.
    public func percentile(_ p: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
