import ArgumentParser
import OrientdCore
import OrientdDaemon
import OrientdIO
import OrientdOptions

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a recording through the classifier and print orientation events.",
        discussion: """
            Plays the recording at its recorded pace (or --speed times it, or as fast as \
            possible with --fast: the events and their 'time' values are the same) and \
            prints one JSON event per line on standard output: once for the first certain \
            state, then on every change of device pose, screen orientation or lock.

            Commands on standard input (unless the recording comes from it) and on \
            --socket work as with 'run', and --exec runs hooks; the replay ends once the \
            last hook has finished.

            Bad sample lines are skipped with a warning naming FILE:LINE; a broken header \
            stops the replay (exit status 65). --strict makes every warning fatal.

            Examples:
              orientd replay Recordings/picked-up-from-table.csv
              orientd replay --fast --lock landscape Recordings/lying-in-bed.csv
              orientd replay --fast Recordings/riding-a-bus.csv | jq -r .xrandr
              gunzip -c bug-report.csv.gz | orientd replay -
            """
    )

    @Argument(help: ArgumentHelp("The recording to play; '-' reads standard input.", valueName: "recording"))
    var path: String

    @Flag(
        help: ArgumentHelp(
            "Play as fast as possible instead of at the recorded pace.", discussion: "Example: orientd replay --fast rec.csv | jq -c ."))
    var fast = false

    @Option(
        help: ArgumentHelp(
            "Play this many times faster than recorded.", discussion: "Example: --speed 4 plays a minute in 15 s.", valueName: "factor"))
    var speed: Double = 1

    @Flag(
        help: ArgumentHelp(
            "Stop at the first warning (exit status 65), for checking recordings.",
            discussion: "Example: orientd replay --fast --strict mine.csv >/dev/null"))
    var strict = false

    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Control, subscribers and hooks") var daemon: DaemonOptions

    @Option(
        help: ArgumentHelp(
            "Read and save the rotation lock here, as 'run' does (a replay keeps it in memory by default).",
            discussion: "Example: --state-directory /tmp/orientd-state", valueName: "directory"))
    var stateDirectory: String?

    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions
    @OptionGroup var sensor: WatchingSensorOption

    func validate() throws {
        guard speed.isFinite, speed > 0 else { throw ValidationError("--speed must be a number > 0, got \(speed)") }
    }

    func run() throws {
        let diagnostics = Diagnostics()
        let saved = DaemonLauncher.savedLock(in: stateDirectory, commandLineLock: policy.lock, diagnostics: diagnostics)
        let factory = PipelineFactory(policy: policy, classifier: classifier, mountMatrix: mountMatrix, savedLock: saved)
        var configuration = try daemon.configuration(live: false, stateDirectory: stateDirectory)
        // The recording is read from standard input: commands cannot be.
        if path == "-" { configuration.commandsFromStandardInput = false }
        let source = try RecordingSource(
            path: path, mountMatrixOverridden: mountMatrix.text != nil, speed: fast ? nil : speed, strict: strict,
            rate: classifier.adaptiveRate, watchingSensor: sensor.watchingSensor
        ) { header, matrix, line, name in
            let made = try factory.make(header: header, headerMatrix: matrix, matrixLine: line, source: name)
            return (made.pipeline, made.warnings)
        }
        // Until the header is read, a placeholder: commands wait for the real pipeline.
        let placeholder = OrientationService(pipeline: OrientationPipeline())
        try DaemonLauncher.run(
            { () throws(Daemon.DaemonError) in
                try Daemon(configuration: configuration, service: placeholder, ready: false, diagnostics: diagnostics)
            },
            source: source, diagnostics: diagnostics)
    }
}
