import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdLinux

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the accelerometer in orientd's recording format, for replay and bug reports.",
        discussion: """
            Writes the header (rate, mount matrix, device) and one line per sample, in m/s² \
            before the mount matrix, exactly what 'orientd replay' reads. Add an 'expect' \
            column by hand to make a labelled recording for 'orientd evaluate'.

            Examples:
              orientd record --seconds 30 > Recordings/mine.csv
              ssh tablet orientd record --seconds 20 | orientd replay -
            """
    )

    @Option(help: ArgumentHelp("Stop after this many seconds (default: until interrupted).", discussion: "Example: --seconds 30", valueName: "seconds"))
    var seconds: Double?

    @Option(help: ArgumentHelp("A description for the header.", discussion: "Example: --description 'turned to landscape on a train'", valueName: "text"))
    var description: String?

    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be a number > 0, got \(seconds)") }
    }

    func run() async throws {
        EventOutput.ignoreBrokenPipeSignal()
        let diagnostics = Diagnostics()
        let output = EventOutput()
        let reader = SensorReader(configuration: sensor.configuration(mountMatrix: try mountMatrix.matrix, wait: false))
        defer { reader.stop() }
        var origin: Double?
        var line: [UInt8] = []
        let writer = RecordingWriter()
        do {
            loop: for await event in reader.start() {
                switch event {
                case .attached(let info):
                    guard origin == nil else {
                        diagnostics.warning("\(info.candidate.id) is back; recording goes on")
                        continue
                    }
                    var header = RecordingHeader()
                    header[RecordingHeader.Key.rate] = info.samplingFrequency.map { "\($0)" } ?? "\(sensor.rate)"
                    header[RecordingHeader.Key.mountMatrix] = info.mountMatrix.description
                    header[RecordingHeader.Key.device] = "\(info.candidate.id) \(info.candidate.name ?? "")"
                    header["read"] = info.readPath.rawValue
                    header[RecordingHeader.Key.description] = description ?? "recorded by orientd \(Orientd.version)"
                    try output.write(Array(header.text.utf8))
                case .sample(let sample):
                    let start = origin ?? sample.time
                    origin = start
                    let t = sample.time - start
                    if let seconds, t > seconds { break loop }
                    line.removeAll(keepingCapacity: true)
                    writer.append(Sample(time: t, acceleration: sample.acceleration), to: &line)
                    try output.write(line)
                case .lost, .waiting, .warning, .failed:
                    try diagnostics.report(event)
                }
            }
        } catch is EventOutput.ConsumerGone {
            diagnostics.note("standard output was closed by its reader; stopping")
        }
    }
}
