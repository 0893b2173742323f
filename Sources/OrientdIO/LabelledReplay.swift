import OrientdCore

/// Plays a labelled recording through the daemon's service as fast as possible and judges
/// the device poses and the screen orientations against its `expect` column. Shared by
/// `orientd evaluate` and the replay tests, so both judge by the same rules.
public enum LabelledReplay {
    /// Builds the pipeline once the header is known: header, its mount matrix and the
    /// line that matrix came from.
    public typealias PipelineMaker = (RecordingHeader, MountMatrix?, Int) throws -> OrientationPipeline

    public struct Verdict: Sendable {
        /// The device pose against the labels: what pass and fail mean.
        public var device: LabelEvaluator.Result
        /// The screen orientation against the labels (`ScreenEvaluator`): figures only.
        public var screen: ScreenEvaluator.Result
        /// Samples in the recording, and those the schedule read: the share the live
        /// daemon would have read (and woken for, on a polled sensor).
        public var samples: Int
        public var samplesRead: Int
        /// Seconds at rest (the rest rate, or a sensor that watches), and the samples read
        /// then: the wake-ups of a still device on a buffered sensor.
        public var stillSeconds = 0.0
        public var stillReads = 0
    }

    /// The verdict, or nil when the recording has no `expect` column. The recording is
    /// played into an `OrientationService` through a `ReplaySchedule`, as `orientd
    /// replay` plays it. `rate`: which samples the service sees, as the live daemon would
    /// read them; the skipped ones are judged too, with the state the daemon had then.
    /// `observed`: the service after each sample it took, before what it said then.
    /// `said`: what the service would have broadcast or said (its warnings, notes and
    /// events), in order.
    public static func run(
        _ reader: RecordingReader, latencyBound: Double? = nil, rate: AdaptiveRateParameters = AdaptiveRateParameters(),
        watchingSensor: Bool = false, makePipeline: PipelineMaker, warning: (InputIssue) -> Void,
        observed: (Sample, AdaptiveRate.Decision, OrientationService) -> Void = { _, _, _ in },
        said: (OrientationService.Outgoing) -> Void = { _ in }
    ) throws -> Verdict? {
        var service: OrientationService?
        var schedule = ReplaySchedule(parameters: rate, watchingSensor: watchingSensor)
        var counts = (samples: 0, read: 0)
        var still = (seconds: 0.0, reads: 0)
        var lastTime: Double?
        var evaluators: (device: LabelEvaluator, screen: ScreenEvaluator)?
        try reader.readAhead { event in
            switch event {
            case .header(let header, let matrix, let line):
                schedule.start(header)
                service = OrientationService(pipeline: try makePipeline(header, matrix, line))
                if header.hasExpectColumn {
                    let bound = latencyBound ?? LabelEvaluator.defaultLatencyBound(rate: header.rate)
                    evaluators = (LabelEvaluator(latencyBound: bound), ScreenEvaluator(latencyBound: bound))
                }
            case .warning(let issue):
                warning(issue)
            case .sample(let sample, let expect):
                counts.samples += 1
                let resting = schedule.pace != .full
                if resting, let last = lastTime { still.seconds += max(0, sample.time - last) }
                lastTime = sample.time
                let decision = schedule.admit(sample)
                if decision.isRead {
                    counts.read += 1
                    if resting { still.reads += 1 }
                }
                service?.take(sample, as: decision)
                if let service { observed(sample, decision, service) }
                if service?.outbox.isEmpty == false, let items = service?.takeOutbox() { items.forEach(said) }
                evaluators?.device.observe(time: sample.time, expect: expect, pose: service?.pipeline.classifier.orientation ?? .unknown)
                evaluators?.screen.observe(time: sample.time, expect: expect, screen: service?.pipeline.current?.screen)
            }
            return .proceed
        }
        return evaluators.map {
            Verdict(
                device: $0.device.result(), screen: $0.screen.result(), samples: counts.samples, samplesRead: counts.read,
                stillSeconds: still.seconds, stillReads: still.reads)
        }
    }
}

extension LabelledReplay.Verdict {
    /// The share of the recording's samples that were read; nil for an empty one.
    public var readShare: Double? { samples > 0 ? Double(samplesRead) / Double(samples) : nil }
    /// Samples read a second while at rest; nil when it never rested.
    public var stillReadRate: Double? { stillSeconds > 0 ? Double(stillReads) / stillSeconds : nil }
}
