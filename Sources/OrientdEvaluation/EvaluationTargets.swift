import OrientdCore

/// The figures a classifier must reach over a set of labelled recordings: no
/// hold missed, the 95th-percentile latency, spurious changes per hour of held time, and
/// how often the screen changes while the device moves. `orientd-lab evaluate --targets` and
/// CI's `scripts/evaluate-real` hold the totals to them.
public struct EvaluationTargets: Hashable, Sendable {
    /// Holds never reached, pose or screen.
    public var missed = 0
    /// The 95th-percentile latency, pose and screen, seconds.
    public var p95Latency = 0.25
    /// Spurious changes per hour of held time.
    public var poseChangesPerHour = 5.0
    public var screenChangesPerHour = 1.0
    /// Screen changes per minute of motion: one per turn, none while only handled.
    public var screenChangesPerMotionMinute = 15.0

    public init() {}

    /// One line per figure over its target, naming the figure, its value and the limit;
    /// empty when every target is met. A figure with nothing behind it (no holds, no
    /// motion) crosses nothing.
    public func crossings(device: EvaluationFigures, screen: EvaluationFigures) -> [String] {
        var out: [String] = []
        for (name, f) in [("pose", device), ("screen", screen)] {
            if f.missed > missed { out.append("\(name): \(f.missed) of \(f.holds) holds missed, at most \(missed)") }
            if let p95 = f.p95Latency, p95 > p95Latency + 1e-9 {
                out.append("\(name): p95 latency \(milliseconds(p95)), at most \(milliseconds(p95Latency))")
            }
        }
        if let perHour = device.spuriousPerHour, perHour > poseChangesPerHour + 1e-9 {
            out.append("pose: \(decimal(perHour)) spurious changes per hour held, at most \(decimal(poseChangesPerHour))")
        }
        if let perHour = screen.spuriousPerHour, perHour > screenChangesPerHour + 1e-9 {
            out.append("screen: \(decimal(perHour)) spurious changes per hour held, at most \(decimal(screenChangesPerHour))")
        }
        if let perMinute = screen.motionChangesPerMinute, perMinute > screenChangesPerMotionMinute + 1e-9 {
            out.append(
                "screen: \(decimal(perMinute)) changes per minute of motion, at most \(decimal(screenChangesPerMotionMinute))")
        }
        return out
    }

    private func milliseconds(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms" }
    private func decimal(_ x: Double) -> String { JSONLineWriter.number(x, decimals: 1) }
}
