import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdOptions

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say why each orientation event of a recording came, and draw it.",
        discussion: """
            Plays the recording as 'orientd replay --fast' does, with the same flags, and \
            prints one line for each orientation event replay prints, beginning with its \
            time: the pose the readings argued for, from when and over how many readings, \
            what held it back and until when (a disturbance, walking, lying flat, a hold \
            not yet over), and which layer put the screen where it is.

            --at prints instead the state of the evidence at that moment: the pose \
            reported, the direction of gravity, the pose the readings argue for and what \
            holds it back. --svg draws the whole recording (gravity's turn and tilt against \
            the poses' bands, disturbances, walking, the evidence and the events) for a \
            bug report.

            For a live sensor, record first, then explain:
              orientd record --seconds 30 > now.csv
              orientd explain now.csv --svg now.svg

            Examples:
              orientd explain Recordings/tapping-while-reading.csv
              orientd explain --at 12.5 --at 14 Recordings/lying-in-bed.csv
              orientd explain Recordings/riding-a-bus.csv --svg bus.svg
            """
    )

    @Argument(help: ArgumentHelp("The recording to explain; '-' reads standard input.", valueName: "recording"))
    var path: String

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Print the state of the evidence at this time instead of the events (repeatable).",
            discussion: "Example: --at 12.5 --at 14", valueName: "seconds"))
    var moments: [Double] = []

    @Option(
        help: ArgumentHelp(
            "Draw the recording as the classifier saw it into this SVG file.",
            discussion: "Example: --svg bug.svg && rsvg-convert bug.svg -o bug.png", valueName: "file"))
    var svg: String?

    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions
    @OptionGroup var sensor: WatchingSensorOption

    func validate() throws {
        if let bad = moments.first(where: { !$0.isFinite || $0 < 0 }) {
            throw ValidationError("--at must be a number of seconds ≥ 0, got \(bad)")
        }
    }

    func run() throws {
        let diagnostics = Diagnostics()
        let factory = PipelineFactory(policy: policy, classifier: classifier, mountMatrix: mountMatrix)
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: path, mountMatrixOverridden: mountMatrix.text != nil)
        } catch {
            diagnostics.error(error.description)
            throw ExitCode(ExitStatus.noInput)
        }
        defer { reader.close() }
        var explainer = Explainer(
            moments: moments.sorted(), tellsEvents: moments.isEmpty,
            chart: svg.map { _ in
                EvidenceChart(title: "orientd explain \(reader.displayName)", parameters: classifier.parameters)
            })
        do {
            try RecordingReplay.run(
                reader, rate: classifier.adaptiveRate, watchingSensor: sensor.watchingSensor,
                makePipeline: factory.maker(source: reader.displayName) { diagnostics.warning($0) }
            ) {
                diagnostics.warning($0.description)
            } observed: { step, service in
                explainer.observe(step.sample, step.decision, service)
            } said: {
                switch $0 {
                case .orientation(let event): explainer.said(event)
                case .warning(let message): diagnostics.warning(message)
                case .note(let message): diagnostics.note(message)
                default: break
                }
            }
        } catch let error as PipelineFactory.DataError {
            diagnostics.error(error.description)
            throw ExitCode(ExitStatus.dataError)
        } catch let error as InputIssue {
            diagnostics.error(error.description)
            throw ExitCode(ExitStatus.dataError)
        } catch {
            diagnostics.error("\(error)")
            throw ExitCode(ExitStatus.ioError)
        }
        explainer.finish()
        if let svg, let chart = explainer.chart {
            do {
                try WholeFile.write(Array(chart.svg.utf8), to: svg)
            } catch {
                diagnostics.error("cannot write '\(svg)': \(error)")
                throw ExitCode(ExitStatus.cannotCreate)
            }
        }
    }
}

/// What `explain` keeps while the recording plays: the evidence trail, the moments still
/// to tell, the chart.
private struct Explainer {
    var moments: [Double]
    /// Events are told unless moments were asked for.
    let tellsEvents: Bool
    var chart: EvidenceChart?
    var trail = EvidenceTrail()
    var last: (evidence: ClassifierEvidence, decidedBy: PolicyLayer, mode: DeviceMode?)?

    mutating func observe(_ sample: Sample, _ decision: AdaptiveRate.Decision, _ service: OrientationService) {
        let evidence = service.pipeline.classifier.evidence
        if case .classify = decision {
            trail.observe(evidence)
            chart?.add(evidence)
        }
        last = (evidence, service.pipeline.policy.decidedBy, service.pipeline.policy.mode)
        while let next = moments.first, sample.time >= next {
            print(MomentExplanation(at: next, evidence: evidence, proposal: trail.current).line)
            moments.removeFirst()
        }
    }

    mutating func said(_ event: OrientationEvent) {
        chart?.add(event)
        guard tellsEvents, let last else { return }
        print(
            EventExplanation(event: event, proposal: trail.current, evidence: last.evidence, decidedBy: last.decidedBy, mode: last.mode)
                .line)
    }

    /// Moments after the last sample: the state at its end.
    mutating func finish() {
        guard let last else { return }
        for moment in moments { print(MomentExplanation(at: moment, evidence: last.evidence, proposal: trail.current).line) }
        moments.removeAll()
    }
}
