import OrientdCore

/// Plays a labelled recording through a pipeline as fast as possible and judges the
/// poses against its `expect` column. Shared by `orientd evaluate` and the replay tests,
/// so both judge by the same rules.
public enum LabelledReplay {
    /// Builds the pipeline once the header is known: header, its mount matrix and the
    /// line that matrix came from.
    public typealias PipelineMaker = (RecordingHeader, MountMatrix?, Int) throws -> OrientationPipeline

    /// The verdict, or nil when the recording has no `expect` column.
    public static func run(
        _ reader: RecordingReader, latencyBound: Double? = nil, makePipeline: PipelineMaker,
        warning: (InputIssue) -> Void
    ) throws -> LabelEvaluator.Result? {
        var pipeline: OrientationPipeline?
        var evaluator: LabelEvaluator?
        try reader.read { event in
            switch event {
            case .header(let header, let matrix, let line):
                pipeline = try makePipeline(header, matrix, line)
                if header.hasExpectColumn {
                    evaluator = LabelEvaluator(
                        latencyBound: latencyBound ?? LabelEvaluator.defaultLatencyBound(rate: header.rate))
                }
            case .warning(let issue):
                warning(issue)
            case .sample(let sample, let expect):
                _ = pipeline?.process(sample)
                evaluator?.observe(time: sample.time, expect: expect, pose: pipeline?.classifier.orientation ?? .unknown)
            }
            return .proceed
        }
        return evaluator?.result()
    }
}
