import OrientdCore

/// Plays a labelled recording through a pipeline as fast as possible and judges the
/// device poses and the screen orientations against its `expect` column. Shared by
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
    }

    /// The verdict, or nil when the recording has no `expect` column.
    /// `rate`: which samples the pipeline sees, as the live daemon would read them; the
    /// skipped ones are judged too, with the state the daemon had then.
    public static func run(
        _ reader: RecordingReader, latencyBound: Double? = nil, rate: AdaptiveRateParameters = AdaptiveRateParameters(),
        makePipeline: PipelineMaker, warning: (InputIssue) -> Void
    ) throws -> Verdict? {
        var pipeline: OrientationPipeline?
        var schedule = AdaptiveRate(parameters: rate)
        var counts = (samples: 0, read: 0)
        var evaluators: (device: LabelEvaluator, screen: ScreenEvaluator)?
        try reader.read { event in
            switch event {
            case .header(let header, let matrix, let line):
                pipeline = try makePipeline(header, matrix, line)
                if header.hasExpectColumn {
                    let bound = latencyBound ?? LabelEvaluator.defaultLatencyBound(rate: header.rate)
                    evaluators = (LabelEvaluator(latencyBound: bound), ScreenEvaluator(latencyBound: bound))
                }
            case .warning(let issue):
                warning(issue)
            case .sample(let sample, let expect):
                counts.samples += 1
                switch schedule.admit(sample) {
                case .skip: break
                case .still:
                    counts.read += 1
                    pipeline?.advanceClock(to: sample.time)
                case .classify:
                    counts.read += 1
                    _ = pipeline?.process(sample)
                }
                evaluators?.device.observe(time: sample.time, expect: expect, pose: pipeline?.classifier.orientation ?? .unknown)
                evaluators?.screen.observe(time: sample.time, expect: expect, screen: pipeline?.current?.screen)
            }
            return .proceed
        }
        return evaluators.map {
            Verdict(device: $0.device.result(), screen: $0.screen.result(), samples: counts.samples, samplesRead: counts.read)
        }
    }
}

extension LabelledReplay.Verdict {
    /// The share of the recording's samples that were read; nil for an empty one.
    public var readShare: Double? { samples > 0 ? Double(samplesRead) / Double(samples) : nil }
}
