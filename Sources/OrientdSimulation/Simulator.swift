import OrientdCore

/// Turns a scenario into a labelled recording.
///
/// Everything random (the sensor's calibration errors, noise, timing, every activity's
/// events) comes from streams derived from the seed, one stream per purpose, so the same
/// scenario and seed always give the same bytes, and changing the sample rate does not
/// change where the bumps and taps fall.
public struct Simulator: Sendable {
    public let scenario: Scenario
    public let seed: UInt64
    private let activities: [any Activity]
    private let index: ActivityIndex
    private let sensor: SensorModel
    /// Sub-samples per sample for the averaging filter.
    private let substeps: Int

    /// The physics is evaluated at about 500 Hz inside each sample period: fine enough
    /// for a 10 ms tap, cheap enough for a million samples.
    static let physicsRate = 500.0
    /// Bytes handed to `render(chunk:)` at a time.
    static let chunkSize = 65_536

    private enum Stream: UInt64 {
        case calibration = 1
        case noise = 2
        case timing = 3
        case jitter = 4
        case activities = 1000
        case shaking = 1_000_000
    }

    public init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
        // Each scenario is its own unit of the part, with its own calibration errors.
        var calibration = Xoshiro256StarStar(seed: seed, stream: Stream.calibration.rawValue ^ Self.fingerprint(of: scenario.name))
        sensor = SensorModel(settings: scenario.settings, generator: &calibration)
        activities = Self.activities(of: scenario, seed: seed)
        index = ActivityIndex(activities)
        substeps = max(1, Int((Self.physicsRate / scenario.settings.rate).rounded()))
    }

    /// The recording's header: rate, mounting, description and how to make it again.
    public var header: RecordingHeader {
        var header = RecordingHeader(hasExpectColumn: true)
        let rate = scenario.settings.rate
        header[RecordingHeader.Key.rate] = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        if let matrix = scenario.settings.mountMatrix { header[RecordingHeader.Key.mountMatrix] = matrix.description }
        if let natural = scenario.settings.natural { header[RecordingHeader.Key.natural] = natural.rawValue }
        if !scenario.description.isEmpty { header[RecordingHeader.Key.description] = scenario.description }
        header[RecordingHeader.Key.generator] = "orientd-lab simulate \(scenario.source) --seed \(seed)"
        return header
    }

    /// The whole recording file (header + lines), deterministic for a given scenario and seed.
    public func render() -> [UInt8] {
        var out: [UInt8] = []
        render { out.append(contentsOf: $0) }
        return out
    }

    /// Streams the same bytes as `render()` in chunks of about 64 KiB, for scenarios too
    /// long to hold in memory.
    public func render(chunk body: ([UInt8]) throws -> Void) rethrows {
        let settings = scenario.settings
        let segments = scenario.segments
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.chunkSize + 256)
        buffer.append(contentsOf: header.text.utf8)
        var noise = GaussianNoise(generator: Xoshiro256StarStar(seed: seed, stream: Stream.noise.rawValue))
        var timing = Xoshiro256StarStar(seed: seed, stream: Stream.timing.rawValue)
        var jitter = GaussianNoise(generator: Xoshiro256StarStar(seed: seed, stream: Stream.jitter.rawValue))
        let writer = RecordingWriter()
        let period = 1 / settings.rate
        let end = scenario.duration
        // A jittered time stays within 45 % of a period of its slot, so times never go back.
        let jitterLimit = 0.45 * period
        var n = 0
        var segment = 0
        while true {
            let nominal = Double(n) * period
            guard nominal < end - 1e-9 else { break }
            n += 1
            var t = nominal
            if settings.jitter > 0 {
                t += max(-jitterLimit, min(jitterLimit, settings.jitter * jitter.next()))
                t = max(0, t)
            }
            // The recording keeps microseconds; computing with the written time makes a
            // reader's view of each sample (its time, its label) exactly the simulator's.
            t = (t * 1e6).rounded() / 1e6
            let dropped = settings.drop > 0 && timing.nextUnit() < settings.drop
            let duplicated = settings.duplicate > 0 && timing.nextUnit() < settings.duplicate
            while segment + 1 < segments.count, segments[segment + 1].start <= t + Self.boundaryTolerance { segment += 1 }
            guard !dropped, !segments[segment].isDropout else { continue }
            let analog = analogReading(at: t)
            let label = segments[segment].label
            writer.append(Sample(time: t, acceleration: sensor.digitize(analog, noise: &noise)), expect: .some(label), to: &buffer)
            if duplicated {
                // The driver stamped a second reading with the same time.
                writer.append(Sample(time: t, acceleration: sensor.digitize(analog, noise: &noise)), expect: .some(label), to: &buffer)
            }
            if buffer.count >= Self.chunkSize {
                try body(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try body(buffer) }
    }

    // MARK: The physics

    /// What the sensor's analog front end holds for the sample stamped `t`, after its
    /// filter: the sensor's own axes, calibration errors and saturation included.
    func analogReading(at t: Double) -> Vector3 {
        let period = 1 / scenario.settings.rate
        guard scenario.settings.filter == .average, substeps > 1 else {
            return sensor.analog(trueReading(at: t))
        }
        let from = max(0, t - period)
        if isStill(from: from, to: t) { return sensor.analog(trueReading(at: t)) }
        var sum = Vector3.zero
        for k in 0..<substeps {
            let tk = max(0, t - (Double(k) + 0.5) * period / Double(substeps))
            sum += sensor.analog(trueReading(at: tk))
        }
        return sum / Double(substeps)
    }

    /// Whether nothing moves in [a, b], so that one evaluation stands for the average.
    private func isStill(from a: Double, to b: Double) -> Bool {
        let i = segmentIndex(at: a)
        let s = scenario.segments[i]
        return !s.turns && !s.translates && b < s.end && a >= s.start + Segment.differenceStep && index.isQuiet(from: a, to: b)
    }

    /// The specific force on the sensor at time t, in the device frame (Linux convention),
    /// before the sensor: what an ideal accelerometer would read.
    ///
    /// An accelerometer measures its acceleration minus gravity; in the world frame (z up)
    /// that is a + (0, 0, g), turned into the device frame by the inverse of the attitude.
    func trueReading(at t: Double) -> Vector3 {
        let segments = scenario.segments
        let i = segmentIndex(at: t)
        let segment = segments[i]
        var world = segment.motionAcceleration(at: t)
        let h = Segment.differenceStep
        if i > 0, t < segment.start + h { world += segments[i - 1].motionAcceleration(at: t) }
        if i + 1 < segments.count, t > segment.end - h { world += segments[i + 1].motionAcceleration(at: t) }
        var effect = ActivityEffect()
        for a in index.active(at: t) { activities[a].contribute(at: t, into: &effect) }
        world += effect.world + ActivityEffect.worldFromBody(effect.body)
        let attitude = segment.attitude(at: t) * effect.wobble
        return attitude.conjugate.rotate(world + Vector3(0, 0, standardGravity)) + effect.device
    }

    /// The label of the sample stamped t: nil is "don't care".
    func label(at t: Double) -> PoseLabel? {
        scenario.segments[segmentIndex(at: t)].label
    }

    /// Step boundaries are sums of durations and sample times are multiples of the
    /// period, both with rounding errors: a sample at 12.6 s belongs to the step that
    /// starts at 12.6 s even when the sum came out as 12.600000000000001.
    static let boundaryTolerance = 1e-9

    func segmentIndex(at t: Double) -> Int {
        let segments = scenario.segments
        var low = 0
        var high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].start <= t + Self.boundaryTolerance { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }

    /// FNV-1a of the scenario's name: stable across runs and Swift versions, unlike
    /// `hashValue`, which is seeded per process.
    static func fingerprint(of name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash << 8
    }

    // MARK: Building the activities

    private static func activities(of scenario: Scenario, seed: UInt64) -> [any Activity] {
        let segments = scenario.segments
        let end = scenario.duration
        // Consecutive steps with the same modifier are one run of one activity.
        var runs: [(modifier: Modifier, first: Int, last: Int)] = []
        var open: [String: Int] = [:]
        for (i, segment) in segments.enumerated() {
            for modifier in segment.modifiers where modifier != .dropout {
                if let r = open[modifier.word], runs[r].last == i - 1 {
                    runs[r].last = i
                } else {
                    runs.append((modifier, i, i))
                    open[modifier.word] = runs.count - 1
                }
            }
        }
        var activities: [any Activity] = []
        for (k, run) in runs.enumerated() {
            let start = segments[run.first].start
            let stop = segments[run.last].end
            var generator = Xoshiro256StarStar(seed: seed, stream: Stream.activities.rawValue + UInt64(k))
            func envelope(ramp: Double) -> Envelope {
                Envelope(start: start, end: stop, ramp: ramp, atRecordingStart: start <= 0, atRecordingEnd: stop >= end - 1e-9)
            }
            switch run.modifier {
            case .walking(let options):
                activities.append(Walking(options: options, envelope: envelope(ramp: 0.8), generator: &generator))
            case .vehicle(let options):
                activities.append(VehicleRide(options: options, envelope: envelope(ramp: 1.0), generator: &generator))
            case .maneuver(let options):
                activities.append(Maneuver(options: options, envelope: envelope(ramp: 1.0)))
            case .taps(let options):
                activities.append(ScreenTaps(options: options, envelope: envelope(ramp: 0), generator: &generator))
            case .tremor(let options):
                activities.append(HandTremor(options: options, envelope: envelope(ramp: 0.3), generator: &generator))
            case .buzz(let options):
                activities.append(VibrationMotor(options: options, envelope: envelope(ramp: 0)))
            case .dropout:
                break
            }
        }
        for (i, segment) in segments.enumerated() {
            if let options = segment.shake {
                var generator = Xoshiro256StarStar(seed: seed, stream: Stream.shaking.rawValue + UInt64(i))
                let envelope = Envelope(start: segment.start, end: segment.end, ramp: 0.25, atRecordingStart: false, atRecordingEnd: false)
                activities.append(Shaking(options: options, envelope: envelope, attitude: segment.fromQuaternion, generator: &generator))
            }
            if segment.kind == .putDown, segment.impact > 0 {
                activities.append(ContactImpact(time: segment.end, peak: segment.impact))
            }
        }
        return activities
    }
}
