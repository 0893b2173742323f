import ArgumentParser
import Glibc
import OrientdCore
import OrientdDaemon
import OrientdIO
import OrientdLinux
import OrientdOptions
import SystemPackage

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the accelerometer in orientd's recording format, for replay and bug reports.",
        discussion: """
            Writes the header (rate, mount matrix, device) and one line per sample, in m/s² \
            before the mount matrix, exactly what 'orientd replay' reads. Add an 'expect' \
            column by hand to make a labelled recording for 'orientd-lab evaluate'.

            Examples:
              orientd record --seconds 30 > Recordings/mine.csv
              ssh tablet orientd record --seconds 20 | orientd replay -
            """
    )

    @Option(
        help: ArgumentHelp(
            "Stop after this many seconds (default: until interrupted).", discussion: "Example: --seconds 30", valueName: "seconds"))
    var seconds: Double?

    @Option(
        help: ArgumentHelp(
            "A description for the header.", discussion: "Example: --description 'turned to landscape on a train'", valueName: "text"))
    var description: String?

    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be a number > 0, got \(seconds)") }
    }

    func run() throws {
        EventOutput.ignoreBrokenPipeSignal()
        // Blocked before the reader's thread starts (it inherits the mask), so Ctrl-C
        // ends the recording here, between two whole lines.
        let signals = try SignalDescriptor([SIGINT, SIGTERM])
        let recorder = try Recorder(
            seconds: seconds,
            header: { info in
                var header = RecordingHeader()
                header[RecordingHeader.Key.rate] = info.samplingFrequency.map { "\($0)" } ?? "\(sensor.rate)"
                header[RecordingHeader.Key.mountMatrix] = info.mountMatrix.description
                header[RecordingHeader.Key.device] = "\(info.candidate.id) \(info.candidate.name ?? "")"
                header["read"] = info.readPath.rawValue
                if info.changeSensitivity != nil { header[RecordingHeader.Key.changeSensitivity] = "offered" }
                header[RecordingHeader.Key.description] = description ?? "recorded by orientd \(OrientdRelease.version)"
                return header.text
            })
        // Every sample at the rate asked for: a replay of the recording applies the
        // adaptive rate from its timestamps.
        let configuration = sensor.configuration(mountMatrix: try mountMatrix.matrix, wait: false, adaptiveRate: .off)
        let reader = try SensorReader(configuration: configuration)
        do {
            try reader.start({ recorder.handle($0) }, finished: { recorder.done.signal() })
        } catch {
            Diagnostics().error("cannot start a thread to read the sensor: \(error)")
            throw ExitCode(ExitStatus.systemError)
        }
        var ending = PollSet<Void>()
        ending.watch(recorder.done.descriptor, for: .readable, as: ())
        ending.watch(signals.descriptor, for: .readable, as: ())
        // Until either is ready; an interruption (nothing ready) waits again, an error ends.
        while (try? ending.wait(timeout: nil))?.isEmpty == true {}
        reader.stop()
        try recorder.finish()
    }
}

/// The recording's state, touched by the sensor thread (samples) and the main thread
/// (the end) under one lock.
private final class Recorder: Sendable {
    struct State {
        var origin: Double?
        var line: [UInt8] = []
        var status: ExitStatus?
        var diagnostics = Diagnostics()
    }

    let seconds: Double?
    let header: @Sendable (AccelerometerInfo) -> String
    let state = Guarded(State())
    /// Signalled when the recording should end.
    let done: WakeUp
    let writer = RecordingWriter()
    let output = EventOutput()

    init(seconds: Double?, header: @escaping @Sendable (AccelerometerInfo) -> String) throws(Errno) {
        done = try WakeUp()
        self.seconds = seconds
        self.header = header
    }

    func handle(_ event: SensorEvent<AccelerometerInfo>) {
        state.withLock { state in
            guard state.status == nil else { return }
            do {
                switch event {
                case .attached(let info):
                    guard state.origin == nil else {
                        state.diagnostics.warning("\(info.candidate.id) is back; recording goes on")
                        return
                    }
                    try output.write(Array(header(info).utf8))
                case .sample(let sample):
                    let start = state.origin ?? sample.time
                    state.origin = start
                    let t = sample.time - start
                    if let seconds, t > seconds {
                        state.status = .success
                        done.signal()
                        return
                    }
                    state.line.removeAll(keepingCapacity: true)
                    writer.append(Sample(time: t, acceleration: sample.acceleration), to: &state.line)
                    try output.write(state.line)
                case .changed, .waiting, .warning, .failed, .still, .pace:
                    if let status = state.diagnostics.report(event) {
                        state.status = status
                        done.signal()
                    }
                }
            } catch is EventOutput.ConsumerGone {
                state.diagnostics.note("standard output was closed by its reader; stopping")
                state.status = .success
                done.signal()
            } catch {
                state.diagnostics.error("\(error)")
                state.status = .ioError
                done.signal()
            }
        }
    }

    func finish() throws {
        let status = state.withLock { $0.status ?? .success }
        if status != .success { throw ExitCode(status) }
    }
}
