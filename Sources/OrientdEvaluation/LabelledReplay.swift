import OrientdCore
import OrientdIO

/// Plays a labelled recording as `orientd replay` plays it (`RecordingReplay`) and judges
/// the device poses and the screen orientations against its `expect` column. Shared by
/// `orientd-lab evaluate` and the replay tests, so both judge by the same rules.
public enum LabelledReplay {
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

    /// The verdict, or nil when the recording has no `expect` column. The samples the
    /// schedule skips are judged too, with the state the daemon had then. `said`: what
    /// the service would have broadcast or said, in order (`RecordingReplay.run`).
    public static func run(
        _ reader: RecordingReader, latencyBound: Double? = nil, rate: AdaptiveRateParameters = AdaptiveRateParameters(),
        watchingSensor: Bool = false, makePipeline: RecordingReplay.PipelineMaker, warning: (InputIssue) -> Void,
        said: (OrientationService.Outgoing) -> Void = { _ in }
    ) throws -> Verdict? {
        var counts = (samples: 0, read: 0)
        var still = (seconds: 0.0, reads: 0)
        var lastTime: Double?
        var evaluators: (device: LabelEvaluator, screen: ScreenEvaluator)?
        try RecordingReplay.run(
            reader, rate: rate, watchingSensor: watchingSensor, makePipeline: makePipeline, warning: warning,
            started: { header in
                guard header.hasExpectColumn else { return }
                let bound = latencyBound ?? LabelEvaluator.defaultLatencyBound(rate: header.rate)
                evaluators = (LabelEvaluator(latencyBound: bound), ScreenEvaluator(latencyBound: bound))
            },
            observed: { step, service in
                let time = step.sample.time
                counts.samples += 1
                if step.resting, let last = lastTime { still.seconds += max(0, time - last) }
                lastTime = time
                if step.decision.isRead {
                    counts.read += 1
                    if step.resting { still.reads += 1 }
                }
                evaluators?.device.observe(time: time, expect: step.expect, pose: service.pipeline.classifier.orientation)
                evaluators?.screen.observe(time: time, expect: step.expect, screen: service.pipeline.current?.screen)
            }, said: said)
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
