import ArgumentParser
import OrientdCore
import OrientdDaemon
import OrientdIO
import OrientdLinux
import OrientdOptions

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the accelerometer and print orientation events (the default command).",
        discussion: """
            Finds the display accelerometer (see 'orientd list'), reads it buffered when it \
            can (no polling) or polled at --rate, and prints the same JSON events as replay, \
            plus 'sensor' events when the sensor is attached or lost. A sensor that goes \
            away is waited for and picked up again when it returns.

            Commands on standard input (and on --socket) lock, unlock and query it while \
            it runs: orientation, status, lock <words>, lock current, unlock, \
            supported <words>, request <words>, release, mode tablet|laptop|auto, monitor, \
            help. Each gets one JSON reply line. The lock is saved across restarts (see \
            --state-directory); a request lasts as long as the connection that made it. \
            --exec runs a command on every screen orientation change.

            Examples:
              orientd
              orientd run --lock portrait | jq -r .xrandr
              orientd run --wait --device accel-display
              orientd run --uri ip:192.168.1.20
              orientd run --socket /tmp/orientd.sock --exec orientd-rotate-sway
            """
    )

    @Flag(
        help: ArgumentHelp(
            "Wait for an accelerometer to appear instead of failing when there is none.", discussion: "Example: orientd run --wait"))
    var wait = false

    @OptionGroup(title: "Configuration") var configurationFile: ConfigurationOption
    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Control, subscribers and hooks") var daemon: DaemonOptions
    @OptionGroup(title: "Saved state") var state: StateOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Calibration") var baseMountMatrix: BaseMountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions

    /// The configuration file, when there is one, is read here, once: its settings are
    /// parsed with the command line's flags after them, and that command starts.
    func run() throws {
        guard let path = configurationFile.path else { return try start(file: nil) }
        switch RunConfiguration.load(path: path, flags: RunConfiguration.commandLineFlags) {
        case .failure(let issues):
            let diagnostics = Diagnostics(warningLimit: .max)
            issues.list.forEach { diagnostics.error($0.description) }
            diagnostics.note("'orientd config check \(path)' checks the file; --no-config ignores it")
            throw ExitCode(ExitStatus.configuration)
        case .success(let (file, arguments)):
            let merged: Run
            do {
                merged = try Run.parse(arguments)
            } catch {
                // Each of the file's lines parsed alone (ConfigurationSettings.load): what
                // fails here is the file and the flags together.
                Diagnostics().error("\(path) with the command line's flags: \(Run.message(for: error))")
                throw ExitCode(ExitStatus.configuration)
            }
            try merged.start(file: file)
        }
    }

    private func start(file: RunConfiguration?) throws {
        let diagnostics = Diagnostics(warningLimit: 1000)
        let saved = DaemonLauncher.savedLock(in: state.directory, commandLineLock: policy.lock, diagnostics: diagnostics)
        let factory = PipelineFactory(policy: policy, classifier: classifier, mountMatrix: mountMatrix, savedLock: saved)
        let made = try factory.make(natural: try policy.resolvedNatural(header: nil), mountMatrix: .identity)
        made.warnings.forEach { diagnostics.warning($0) }
        var configuration = try daemon.configuration(live: true, stateDirectory: state.directory)
        configuration.reload = file.map { Self.reloader(natural: made.pipeline.natural, file: $0) }
        // The sensor is read only while the daemon runs: when standard output's reader
        // goes away (or a signal comes) the loop ends and the reader thread is stopped,
        // so no sensor is kept awake (and polled) for nobody.
        try DaemonLauncher.run(
            { () throws(Daemon.DaemonError) in
                try Daemon(
                    configuration: configuration, service: OrientationService(pipeline: made.pipeline), ready: true,
                    diagnostics: diagnostics)
            },
            source: try SensorSource(
                configuration: sensor.configuration(
                    mountMatrix: try mountMatrix.matrix, wait: wait, adaptiveRate: classifier.adaptiveRate),
                baseMountMatrix: try baseMountMatrix.matrix),
            diagnostics: diagnostics)
    }
}

extension Run {
    /// SIGHUP: the configuration file and the same flags again, parsed as at start; what
    /// can change while running is handed to the daemon, what cannot is named.
    static func reloader(natural: NaturalOrientation, file: RunConfiguration) -> () -> Daemon.ReloadResult {
        // What the file said when last read (at start, then at each reload), so a reload
        // compares the file with itself, not with the running flags.
        var last = file
        return {
            let loaded: (RunConfiguration, arguments: [String])
            switch RunConfiguration.load(path: file.path, flags: file.flags) {
            case .success(let l): loaded = l
            case .failure(let issues): return .failed(issues.list.map(\.description).joined(separator: "; "))
            }
            do {
                let new = try Run.parse(loaded.arguments)
                let now = loaded.0.restartOnly
                let changed = Set(now.keys).union(last.restartOnly.keys).filter { now[$0] != last.restartOnly[$0] }.sorted()
                last = loaded.0
                return .applied(
                    Daemon.Reload(
                        supported: try new.policy.supportedSet(natural: natural), rotateIn: new.policy.rotateIn,
                        parameters: new.classifier.parameters, suggestionTimeout: new.policy.suggestionTimeout,
                        hooks: try new.daemon.parsedHooks(), hookTimeout: new.daemon.execTimeout,
                        needsRestart: changed, source: file.path))
            } catch {
                return .failed("\(file.path): \(Run.message(for: error))")
            }
        }
    }
}
