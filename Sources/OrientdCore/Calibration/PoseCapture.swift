/// One pose held by a person for `orientd calibrate`: the samples of a still stretch,
/// averaged, once the device has been held still long enough.
///
/// A sample further than `tolerance` from the mean of the stretch so far is motion: the
/// stretch starts again from it, so a pose is never averaged across a move (a mean taken
/// while turning would give a tilted matrix).
public struct PoseCapture: Sendable {
    /// How long the device must be held still, in seconds.
    public var holdSeconds: Double
    /// m/s² from the stretch's mean that counts as motion. A hand holds a tablet within
    /// about 0.2 m/s² of its mean; a deliberate move exceeds 1.
    public var tolerance: Double

    public enum Progress: Equatable, Sendable {
        /// The last sample was this far (m/s²) from the still stretch: waiting for stillness.
        case moving(Double)
        /// Still for this share (0–1) of the time asked for.
        case holding(Double)
        /// Held still long enough: the mean reading and how many samples it took.
        case held(Vector3, samples: Int)
    }

    private var start: Double?
    private var sum = Vector3.zero
    private var count = 0

    public init(holdSeconds: Double = 2, tolerance: Double = 0.6) {
        self.holdSeconds = holdSeconds
        self.tolerance = tolerance
    }

    /// The mean of the still stretch so far (zero before the first sample).
    public var mean: Vector3 { count > 0 ? sum / Double(count) : .zero }

    public mutating func add(_ sample: Sample) -> Progress {
        let deviation = (sample.acceleration - mean).length
        if start == nil || deviation > tolerance {
            let moved = start != nil
            start = sample.time
            sum = sample.acceleration
            count = 1
            if moved { return .moving(deviation) }
        } else {
            sum = sum + sample.acceleration
            count += 1
        }
        let held = sample.time - (start ?? sample.time)
        if held >= holdSeconds { return .held(mean, samples: count) }
        return .holding(min(max(held / holdSeconds, 0), 1))
    }
}
