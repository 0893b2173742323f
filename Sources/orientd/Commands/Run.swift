import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdLinux

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the accelerometer and print orientation events (the default command).",
        discussion: """
            Finds the display accelerometer (see 'orientd list'), reads it buffered when it \
            can (no polling) or polled at --rate, and prints the same JSON events as replay, \
            plus 'sensor' events when the sensor is attached or lost. A sensor that goes \
            away is waited for and picked up again when it returns.

            Examples:
              orientd
              orientd run --lock portrait | jq -r .xrandr
              orientd run --wait --device accel-display
              orientd run --uri ip:192.168.1.20
            """
    )

    @Flag(help: ArgumentHelp("Wait for an accelerometer to appear instead of failing when there is none.", discussion: "Example: orientd run --wait"))
    var wait = false

    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Screen orientation") var policy: PolicyOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Classifier parameters") var classifier: ClassifierOptions

    func run() async throws {
        EventOutput.ignoreBrokenPipeSignal()
        let diagnostics = Diagnostics(warningLimit: 1000)
        let output = EventOutput()
        let natural = try policy.resolvedNatural(header: nil)
        var pipeline = OrientationPipeline(
            mountMatrix: .identity, parameters: classifier.parameters,
            supported: try policy.supportedSet(natural: natural), natural: natural)
        if let lock = try policy.lockSet(natural: natural), pipeline.lock(lock).outcome.overridesConfigured {
            diagnostics.warning("--lock \(policy.lock ?? ""): none of it is in --supported \(policy.supported ?? ""); the lock wins")
        }
        let reader = SensorReader(configuration: sensor.configuration(mountMatrix: try mountMatrix.matrix, wait: wait))
        // The sensor is read only while this loop consumes its events: when the consumer
        // of standard output goes away the loop ends and the reader thread is stopped, so
        // no sensor is kept awake (and polled) for nobody.
        defer { reader.stop() }
        var units = UnitsCheck()
        var device = ""
        do {
            for await event in reader.start() {
                switch event {
                case .attached(let info):
                    pipeline.replaceSensor(mountMatrix: info.mountMatrix)
                    units = UnitsCheck()
                    device = info.candidate.id
                    try output.write(SensorEventLine.attached(info, time: pipeline.lastTime))
                    diagnostics.note("reading \(info.candidate.id) (\(info.candidate.name ?? "unnamed")), \(info.readPath.rawValue)")
                case .sample(let sample):
                    if let message = units.check(sample.acceleration) {
                        diagnostics.warning("\(device): \(message); 'orientd list' shows the scale in use")
                    }
                    if let e = pipeline.process(sample) { try output.write(e.jsonLine) }
                case .lost(let device, let reason):
                    try output.write(SensorEventLine.lost(device: device, reason: reason, time: pipeline.lastTime))
                    try diagnostics.report(event)
                case .waiting, .warning, .failed:
                    try diagnostics.report(event)
                }
            }
        } catch is EventOutput.ConsumerGone {
            diagnostics.note("standard output was closed by its reader; stopping")
        }
    }
}

/// The `sensor` events of the stream.
enum SensorEventLine {
    static func attached(_ info: AccelerometerInfo, time: Double) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "sensor")
        json.add("state", "attached")
        json.add("time", time)
        json.add("device", info.candidate.id)
        json.add("name", info.candidate.name)
        json.add("location", info.candidate.location.rawValue)
        json.add("read", info.readPath.rawValue)
        if let f = info.samplingFrequency { json.add("rate", f, decimals: 3) } else { json.addNull("rate") }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }

    static func lost(device: String, reason: String, time: Double) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "sensor")
        json.add("state", "lost")
        json.add("time", time)
        json.add("device", device)
        json.add("reason", reason)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
