import ArgumentParser
import OrientdCore
import OrientdIO

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a recording through the classifier and print orientation events.",
        discussion: """
            Plays the recording at its recorded pace (or --speed times it, or as fast as \
            possible with --fast: the events and their 'time' values are the same) and \
            prints one JSON event per line on standard output: once for the first certain \
            state, then on every change of device pose, screen orientation or lock.

            Bad sample lines are skipped with a warning naming FILE:LINE; a broken header \
            stops the replay (exit status 65). --strict makes every warning fatal.

            Examples:
              orientd replay Recordings/picked-up-from-table.csv
              orientd replay --fast --lock landscape Recordings/lying-in-bed.csv
              orientd replay --fast Recordings/riding-a-bus.csv | jq -r 'select(.event=="orientation") | .xrandr'
              gunzip -c bug-report.csv.gz | orientd replay -
            """
    )

    @Argument(help: ArgumentHelp("The recording to play; '-' reads standard input.", valueName: "recording"))
    var path: String

    @Flag(help: ArgumentHelp("Play as fast as possible instead of at the recorded pace.", discussion: "Example: orientd replay --fast rec.csv | jq -c ."))
    var fast = false

    @Option(help: ArgumentHelp("Play this many times faster than recorded.", discussion: "Example: --speed 4 plays a minute in 15 s.", valueName: "factor"))
    var speed: Double = 1

    @Flag(help: ArgumentHelp("Stop at the first warning (exit status 65), for checking recordings.", discussion: "Example: orientd replay --fast --strict mine.csv > /dev/null && echo clean"))
    var strict = false

    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions

    func validate() throws {
        guard speed.isFinite, speed > 0 else { throw ValidationError("--speed must be a number > 0, got \(speed)") }
    }

    func run() throws {
        EventOutput.ignoreBrokenPipeSignal()
        let diagnostics = Diagnostics()
        let output = EventOutput()
        let factory = PipelineFactory(
            policy: policy, classifier: classifier, mountMatrix: mountMatrix, diagnostics: diagnostics)
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: path, mountMatrixOverridden: mountMatrix.text != nil)
        } catch {
            diagnostics.error(error.description)
            throw ExitCode(66)  // EX_NOINPUT
        }
        defer { reader.close() }

        var pipeline: OrientationPipeline?
        var pacer = Pacer(speed: speed)
        var samples = 0
        var strictFailure = false
        var units = UnitsCheck()
        do {
            try reader.read { event in
                switch event {
                case .header(let header, let matrix, let line):
                    pipeline = try factory.make(
                        header: header, headerMatrix: matrix, matrixLine: line, source: reader.displayName)
                case .warning(let issue):
                    diagnostics.warning(issue.description)
                    if strict {
                        strictFailure = true
                        return .stop
                    }
                case .sample(let sample, _):
                    samples += 1
                    if let message = units.check(sample.acceleration) {
                        diagnostics.warning("\(reader.displayName): \(message)")
                    }
                    if !fast { pacer.wait(until: sample.time) }
                    if let event = pipeline?.process(sample) {
                        try output.write(event.jsonLine)
                    }
                }
                return .proceed
            }
        } catch is EventOutput.ConsumerGone {
            diagnostics.note("standard output was closed by its reader; stopping")
            return
        } catch let issue as InputIssue {
            diagnostics.error(issue.description)
            throw ExitCode(65)  // EX_DATAERR
        } catch let error as PipelineFactory.DataError {
            diagnostics.error(error.message)
            throw ExitCode(65)
        } catch let error as RecordingReader.OpenError {
            diagnostics.error(error.description)
            throw ExitCode(66)
        }
        diagnostics.summarise()
        if strictFailure {
            diagnostics.error("stopped at the first warning (--strict)")
            throw ExitCode(65)
        }
        if pipeline?.current == nil {
            diagnostics.note(
                "no certain orientation in \(samples) sample(s) of \(reader.displayName): were they all in motion, or not in m/s²?")
        }
    }
}
