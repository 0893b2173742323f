import ArgumentParser
import OrientdCore
import OrientdDaemon
import OrientdIO
import OrientdLinux

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

    func run() throws {
        let diagnostics = Diagnostics(warningLimit: 1000)
        let saved = DaemonLauncher.savedLock(in: state.directory, commandLineLock: policy.lock, diagnostics: diagnostics)
        let factory = PipelineFactory(policy: policy, classifier: classifier, mountMatrix: mountMatrix, savedLock: saved)
        let made = try factory.make(natural: try policy.resolvedNatural(header: nil), mountMatrix: .identity)
        made.warnings.forEach { diagnostics.warning($0) }
        var configuration = try daemon.configuration(live: true, stateDirectory: state.directory)
        configuration.reload = Self.reloader(natural: made.pipeline.natural)
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
    static func reloader(natural: NaturalOrientation) -> (() -> Daemon.ReloadResult)? {
        guard let invocation = RunInvocation.current, let path = invocation.configurationPath else { return nil }
        // What the file said at start: read again, not taken from the running flags, so a
        // reload compares the file with itself.
        var restartOnly = (try? invocation.resolve().get())?.restartOnly ?? [:]
        return {
            let resolved: RunInvocation.Resolved
            switch invocation.resolve() {
            case .success(let r): resolved = r
            case .failure(let issues): return .failed(issues.list.map(\.description).joined(separator: "; "))
            }
            do {
                let new = try Run.parse(Array(resolved.arguments.dropFirst()))
                let now = resolved.restartOnly
                let changed = Set(now.keys).union(restartOnly.keys).filter { now[$0] != restartOnly[$0] }.sorted()
                restartOnly = now
                return .applied(
                    Daemon.Reload(
                        supported: try new.policy.supportedSet(natural: natural), rotateIn: new.policy.rotateIn,
                        parameters: new.classifier.parameters, suggestionTimeout: new.policy.suggestionTimeout,
                        hooks: try new.daemon.parsedHooks(), hookTimeout: new.daemon.execTimeout,
                        needsRestart: changed, source: path))
            } catch {
                return .failed("\(path): \(Run.message(for: error))")
            }
        }
    }
}
