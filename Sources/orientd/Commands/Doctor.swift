import ArgumentParser
import Glibc
import OrientdClient
import OrientdCore
import OrientdIO
import OrientdLinux
import SystemPackage

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check why the screen does not turn, or turns the wrong way, and say the fix.",
        discussion: """
            Checks, in order, with a verdict a line (ok, note or PROBLEM) and the fix under \
            each problem: the configuration file; an accelerometer, and whether the \
            service's user can read it; readings that change (a driver returning a stale \
            value) and that measure gravity as 9.8 m/s² (a wrong scale); the mount matrix \
            in force, where it came from (hwdb, driver, orientd.conf) and whether the pose \
            it gives now is plausible; a 2-in-1's display and base sensors and tablet-mode \
            switch; another program that turns the screen (iio-sensor-proxy with GNOME or \
            KDE, rot8, a second orientd); the service; and, from the running daemon, the \
            rotation lock, apps' requests, laptop mode and the hooks. It reads the sensor \
            for 2 s: keep the device as it is used meanwhile.

            Exit status 0 when nothing is a problem, 1 otherwise. With --json, one JSON \
            object a check: check, verdict (ok, note, problem), detail, fix.

            Examples:
              orientd doctor
              sudo orientd doctor --device iio:device1
              orientd doctor --json | jq -r 'select(.verdict == "problem") | .fix'
            """
    )

    @Flag(help: ArgumentHelp("One JSON object a check, instead of text.", discussion: "Example: orientd doctor --json | jq ."))
    var json = false

    @Option(help: ArgumentHelp("The daemon's socket.", discussion: "Example: --socket /tmp/orientd.sock", valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "The accelerometer to check (IIO id, name or label), as run's --device; else orientd.conf's, else the one run would read.",
            discussion: "Example: --device iio:device1", valueName: "device"))
    var device: String?

    @Option(
        help: ArgumentHelp(
            "The configuration file the service reads.", discussion: "Example: --config /etc/orientd.conf", valueName: "path"))
    var config: String = ConfigurationSettings.defaultPath

    func run() throws {
        var problems = 0
        func say(_ finding: DoctorFinding) {
            if finding.verdict == .problem { problems += 1 }
            let line = json ? finding.jsonLine : Array((finding.text + "\n").utf8)
            _ = try? FileDescriptor.standardOutput.writeAll(line)
        }
        let settings = DoctorProbes.configuration(config)
        say(settings.finding)
        // Asked first: a sensor the daemon finds hung or frozen is not read here
        // (DaemonCheck.readingsNotJudged).
        let status = DoctorProbes.status(socket: socket ?? ControlSocket.clientDefault)
        let trouble = (try? status.get())?.sensorTrouble
        let sensor = sensorFindings(
            device: device ?? settings.value("device"), configuredMatrix: settings.value("mount-matrix"), trouble: trouble)
        sensor.forEach(say)
        let service = DoctorProbes.service()
        say(service.finding)
        say(RotatorCheck.judge(DoctorProbes.processes(), daemon: service.mainPID, doctor: getpid()))
        switch status {
        case .success(let status):
            let path = DoctorProbes.path(of: service.mainPID)
            DaemonCheck.judge(status) { DoctorProbes.canRun($0, path: path) }.forEach(say)
        case .failure(let why):
            say(
                DoctorFinding(
                    "daemon", .problem, "no orientd answers: \(why.why); nothing reports or turns the screen",
                    fix: "systemctl start orientd (udev starts it when a sensor appears); journalctl -u orientd -b says why it stopped"))
        }
        if !json {
            print(problems == 0 ? "\nNo problem found." : "\n\(problems) problem\(problems == 1 ? "" : "s") found.")
        }
        if problems > 0 { throw ExitCode(1) }
    }

    /// The sensor, its readings, its mount matrix, and a 2-in-1's other half; the
    /// readings not taken from the sensor `trouble` names.
    private func sensorFindings(device: String?, configuredMatrix: String?, trouble: DaemonStatus.Trouble?) -> [DoctorFinding] {
        let found: [AccelerometerDiscovery.Found]
        let discovery = AccelerometerDiscovery(uri: nil, mountMatrixOverride: nil, rate: 50)
        do {
            found = try discovery.find()
        } catch {
            return [DoctorFinding("sensor", .problem, "cannot look for accelerometers: \(error)", fix: "run it where udev runs")]
        }
        let noSensorFix =
            "orientd list shows what it sees; journalctl -k | grep -i -e iio -e accel -e sensor shows the drivers' messages "
            + "(a sensor hub needs hid-sensor-accel-3d; an i2c sensor its driver and, often, an ACPI quirk)"
        guard !found.isEmpty else {
            return [DoctorFinding("sensor", .problem, "no accelerometer: \(discovery.searchedPlaces) found none", fix: noSensorFix)]
        }
        let chosen: AccelerometerDiscovery.Found
        switch SensorChoice.choose(from: found, candidate: \.candidate, requested: device) {
        case .success(let c): chosen = c
        case .failure(let why):
            return [DoctorFinding("sensor", .problem, "\(why)", fix: noSensorFix)]
        }
        var findings = [DoctorProbes.access(chosen)]
        let base = SensorChoice.chooseBase(from: found, candidate: \.candidate)
        if let note = DaemonCheck.readingsNotJudged(trouble, device: chosen.candidate.id) {
            findings.append(note)
            findings.append(DoctorProbes.convertible(display: chosen, base: base))
            return findings
        }

        let live: LivePoses
        let info: AccelerometerInfo
        let samples: [Sample]
        do {
            live = try LivePoses(
                configuration: SensorReader.Configuration(
                    uri: nil, device: chosen.candidate.id, mountMatrixOverride: .identity, rate: 50, adaptiveRate: .off,
                    forcePolling: true, wait: false))
            defer { live.stop() }
            info = try live.sensor()
            samples = try live.collect(seconds: 2)
        } catch {
            findings.append(DoctorFinding("readings", .problem, "cannot read \(chosen.candidate.id): \(error.message)", fix: noSensorFix))
            return findings
        }
        let scale = info.calibration.scale
        let scaleText =
            (scale.x == scale.y && scale.y == scale.z ? "\(scale.x)" : "\(scale.x), \(scale.y), \(scale.z)")
            + " from \(info.calibration.scaleSource)"
        findings += ReadingsCheck.judge(samples, scale: scaleText)

        if !samples.isEmpty, let here = Calibrate.here(chosen, among: found) {
            var matrix = (here.inForce, here.source)
            if let text = configuredMatrix, let configured = try? MountMatrix(parsing: text) { matrix = (configured, .commandLine) }
            let mean = samples.map(\.acceleration).reduce(Vector3(0, 0, 0), +) * (1 / Double(samples.count))
            findings.append(PoseCheck.judge(matrix: matrix.0, source: matrix.1, reading: mean, convertible: base != nil))
        }
        findings.append(DoctorProbes.convertible(display: chosen, base: base))
        return findings
    }
}
