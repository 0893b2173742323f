import OrientdCore

/// Plays a recording through the daemon's service as fast as possible, as `orientd
/// replay` plays it: each sample through a `ReplaySchedule` (which samples the live daemon
/// would read) into an `OrientationService`. `explain` and the lab's evaluation build on
/// it, so neither can play a recording otherwise than replay does.
public enum RecordingReplay {
    /// Builds the pipeline once the header is known: header, its mount matrix and the
    /// line that matrix came from.
    public typealias PipelineMaker = (RecordingHeader, MountMatrix?, Int) throws -> OrientationPipeline

    /// One sample as the schedule saw it, and the service after it.
    public struct Step {
        public var sample: Sample
        /// The sample's `expect` label, in a labelled recording.
        public var expect: PoseLabel?
        /// Whether the service took it, and at which pace.
        public var decision: AdaptiveRate.Decision
        /// The schedule was at a rest pace when the sample came (the rest rate, or a
        /// sensor that watches): the wake-ups of a still device.
        public var resting: Bool
    }

    /// `rate`: which samples the service sees, as the live daemon would read them.
    /// `started`: the header, once read, before any sample. `observed`: each sample (read
    /// or skipped) with the service after it, before what it said then. `said`: what the
    /// service would have broadcast or said (its warnings, notes and events), in order.
    public static func run(
        _ reader: RecordingReader, rate: AdaptiveRateParameters = AdaptiveRateParameters(), watchingSensor: Bool = false,
        makePipeline: PipelineMaker, warning: (InputIssue) -> Void, started: (RecordingHeader) -> Void = { _ in },
        observed: (Step, OrientationService) -> Void = { _, _ in }, said: (OrientationService.Outgoing) -> Void = { _ in }
    ) throws {
        var service: OrientationService?
        var schedule = ReplaySchedule(parameters: rate, watchingSensor: watchingSensor)
        try reader.readAhead { event in
            switch event {
            case .header(let header, let matrix, let line):
                schedule.start(header)
                service = OrientationService(pipeline: try makePipeline(header, matrix, line))
                started(header)
            case .warning(let issue):
                warning(issue)
            case .sample(let sample, let expect):
                let resting = schedule.pace != .full
                let decision = schedule.admit(sample)
                service?.take(sample, as: decision)
                if let service { observed(Step(sample: sample, expect: expect, decision: decision, resting: resting), service) }
                if service?.outbox.isEmpty == false, let items = service?.takeOutbox() { items.forEach(said) }
            }
            return .proceed
        }
    }
}
