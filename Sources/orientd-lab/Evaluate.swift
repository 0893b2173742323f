import ArgumentParser
import OrientdCore
import OrientdEvaluation
import OrientdIO
import OrientdOptions

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the classifier against labelled recordings (the 'expect' column).",
        discussion: """
            Plays each recording as fast as possible and compares the device pose after \
            every sample with its 'expect' label: each labelled stretch must be reached \
            within the latency bound and kept to its end, and every change must go to the \
            label of the stretch it happens in (or, while the label is '-', to the next \
            label). Prints one line per recording and each violation; exits 1 if any fail.

            Use it to check a recording you labelled for a bug report, or to try other \
            classifier parameters on all the bundled recordings:
              orientd-lab evaluate Recordings/*.csv
              orientd-lab evaluate --hold-time 0.2 --rotation-hysteresis 25 Recordings/*.csv
              orientd-lab evaluate --table --targets ../shared/real-recordings/*.csv
            """
    )

    @Argument(help: ArgumentHelp("Labelled recordings.", valueName: "recording"))
    var paths: [String]

    @Option(help: ArgumentHelp("Latency bound; default 0.3 s, or 3 sample intervals below 10 Hz.", valueName: "seconds"))
    var latencyBound: Double?

    @Flag(help: "Print every labelled stretch with its latency.")
    var verbose = false

    @Flag(
        help: ArgumentHelp(
            "Print figures instead of violations: for the device pose and the screen, per recording and in total.",
            discussion:
                "holds, missed holds, median and 95th-percentile latency, accuracy (share of held samples right), spurious changes per hour of held time, changes per minute of motion (while the label is '-'), the share of samples read (the adaptive rate skips the others while the device is still), and the samples read a second while it rests (a buffered sensor's wake-ups then)."
        ))
    var table = false

    @Flag(
        help: ArgumentHelp(
            "Judge the totals against the project's targets instead of each recording's labels.",
            discussion:
                "No hold missed, p95 latency at most 250 ms, at most 5 spurious pose and 1 spurious screen change per hour of held time, at most 15 screen changes per minute of motion. Exits 1 naming each figure over its target; a recording that fails its labels alone does not."
        ))
    var targets = false

    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions
    @OptionGroup var sensor: WatchingSensorOption

    /// One recording played as `orientd replay` plays it, and judged; the service's
    /// warnings and notes said as replay says them.
    private func judge(_ path: String, factory: PipelineFactory, diagnostics: Diagnostics) throws -> LabelledReplay.Verdict? {
        let reader = try RecordingReader(path: path, mountMatrixOverridden: mountMatrix.text != nil)
        defer { reader.close() }
        return try LabelledReplay.run(
            reader, latencyBound: latencyBound, rate: classifier.adaptiveRate, watchingSensor: sensor.watchingSensor,
            makePipeline: factory.maker(source: reader.displayName) { diagnostics.warning($0) }
        ) {
            diagnostics.warning($0.description)
        } said: {
            switch $0 {
            case .warning(let message): diagnostics.warning(message)
            case .note(let message): diagnostics.note(message)
            default: break
            }
        }
    }

    func run() throws {
        let diagnostics = Diagnostics()
        let factory = PipelineFactory(policy: policy, classifier: classifier, mountMatrix: mountMatrix)
        var failures = 0
        var unread = 0
        var worst = 0.0
        var totals = (device: EvaluationFigures(), screen: EvaluationFigures())
        var totalSamples = (all: 0, read: 0, stillSeconds: 0.0, stillReads: 0)
        if table { print(FiguresTable.header) }
        for path in paths {
            let verdict: LabelledReplay.Verdict?
            do {
                verdict = try judge(path, factory: factory, diagnostics: diagnostics)
            } catch {
                print("ERROR \(path): \(error)")
                failures += 1
                unread += 1
                continue
            }
            guard let verdict else {
                print("SKIP  \(path): no 'expect' column")
                continue
            }
            let result = verdict.device
            if !result.passed { failures += 1 }
            worst = max(worst, result.worstLatency ?? 0)
            let figures = (device: result.figures, screen: verdict.screen.figures)
            totals = (totals.device + figures.device, totals.screen + figures.screen)
            totalSamples = (
                totalSamples.all + verdict.samples, totalSamples.read + verdict.samplesRead,
                totalSamples.stillSeconds + verdict.stillSeconds, totalSamples.stillReads + verdict.stillReads
            )
            if table {
                print(
                    FiguresTable.row(
                        name: path, device: figures.device, screen: figures.screen, read: verdict.readShare, still: verdict.stillReadRate))
                continue
            }
            let latency = result.worstLatency.map { "worst latency \(Int(($0 * 1000).rounded())) ms" } ?? "no stretch reached"
            print("\(result.passed ? "PASS" : "FAIL")  \(path): \(result.stretches.count) stretches, \(result.changes) changes, \(latency)")
            if verbose {
                for s in result.stretches {
                    let l = s.latency.map { "\(Int(($0 * 1000).rounded())) ms" } ?? "never"
                    let flaps = s.changesAfterSettling > 0 ? ", changed \(s.changesAfterSettling) times after" : ""
                    print("      \(s.label) \(s.start)–\(s.end) s: \(l)\(flaps)")
                }
            }
            for v in result.violations { print("      \(v)") }
        }
        if table {
            let read = totalSamples.all > 0 ? Double(totalSamples.read) / Double(totalSamples.all) : nil
            let still = totalSamples.stillSeconds > 0 ? Double(totalSamples.stillReads) / totalSamples.stillSeconds : nil
            print(FiguresTable.row(name: "total", device: totals.device, screen: totals.screen, read: read, still: still))
        }
        print("\(paths.count - failures) passed, \(failures) failed; worst latency \(Int((worst * 1000).rounded())) ms")
        guard targets else {
            if failures > 0 { throw ExitCode(ExitStatus.failure) }
            return
        }
        // A recording that could not be read is no figure at all: the totals would judge
        // what is left, so the targets are not judged.
        guard unread == 0 else {
            print("targets: not judged: \(unread) recording\(unread == 1 ? "" : "s") could not be read")
            throw ExitCode(ExitStatus.failure)
        }
        let crossed = EvaluationTargets().crossings(device: totals.device, screen: totals.screen)
        for line in crossed { print("target crossed: \(line)") }
        print(crossed.isEmpty ? "targets: all met" : "targets: \(crossed.count) crossed")
        if !crossed.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}
