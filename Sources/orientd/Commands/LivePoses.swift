import Glibc
import OrientdCore
import OrientdIO
import OrientdLinux
import SystemPackage

/// Poses held by a person, from the live sensor (`orientd calibrate`): each asked for in
/// words, started with Enter, and taken only once the device has been held still, with a
/// progress bar meanwhile and a word when it moves.
///
/// The sensor is polled (its axis files), as a running orientd may hold its buffer.
final class LivePoses: Sendable {
    private struct State {
        var samples: [Sample] = []
        var info: AccelerometerInfo?
        var problem: String?
    }

    private let state = Guarded(State())
    private let arrived: WakeUp
    private let reader: SensorReader

    init(configuration: SensorReader.Configuration) throws(CalibrationFailure) {
        do {
            arrived = try WakeUp()
            reader = try SensorReader(configuration: configuration)
        } catch {
            throw CalibrationFailure("cannot start reading the sensor: \(error)", status: .systemError)
        }
        do {
            try reader.start { [self] event in handle(event) }
        } catch {
            throw CalibrationFailure("cannot start a thread to read the sensor: \(error)", status: .systemError)
        }
    }

    private func handle(_ event: SensorEvent<AccelerometerInfo>) {
        state.withLock { state in
            switch event {
            case .attached(let info): state.info = info
            case .sample(let sample), .still(let sample):
                // A person answers in seconds; a minute of samples is plenty.
                if state.samples.count >= 3000 { state.samples.removeFirst(1000) }
                state.samples.append(sample)
            case .failed(let message): state.problem = message
            case .changed(.lost(let reason), let device, _): state.problem = "\(device) lost: \(reason)"
            case .warning(let message): Diagnostics().warning(message)
            case .waiting, .changed, .pace: break
            }
        }
        arrived.signal()
    }

    /// The sensor being read, once it is open (waits up to 5 s).
    func sensor() throws(CalibrationFailure) -> AccelerometerInfo {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let problem = state.withLock({ $0.problem }) { throw CalibrationFailure(problem, status: .unavailable) }
            if let info = state.withLock({ $0.info }) { return info }
            if arrived.wait(seconds: 0.1) { arrived.drain() }
        }
        throw CalibrationFailure("the accelerometer did not open within 5 s", status: .unavailable)
    }

    /// Asks for `pose` in `words` (and waits for Enter when `ask`), then takes it.
    func take(_ pose: DeviceOrientation, words: String, capture: PoseCapture, ask: Bool) throws(CalibrationFailure) -> HeldPose {
        if ask {
            Self.say("\n\(words), then press Enter.")
            guard readLine() != nil else { throw CalibrationFailure("standard input ended before the \(pose) pose", status: .usage) }
        } else {
            Self.say("\(words): reading the sensor.")
        }
        var capture = capture
        var shown = ""
        // `[##########----------]  50 %  hold it still`, over itself on a terminal; in a
        // log, a line each time the words change.
        func bar(_ words: String, share: Double) {
            let filled = Int((share * 20).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
            let line = "  [\(bar)] \(Int((share * 100).rounded(.down))) %  \(words)"
            if Self.terminal {
                Self.write("\r\u{1B}[K" + line)
            } else if words != shown {
                Self.say(line)
            }
            shown = words
        }
        state.withLock { $0.samples.removeAll() }
        let seconds = 60
        let deadline = ContinuousClock.now + .seconds(seconds)
        var readings = 0
        while ContinuousClock.now < deadline {
            let samples = try arrivals()
            readings += samples.count
            for sample in samples {
                let progress = capture.add(sample)
                switch progress {
                case .moving(let deviation):
                    bar("moving (\(JSONLineWriter.number(deviation, decimals: 1)) m/s²): hold it still", share: 0)
                case .holding(let share):
                    bar("hold it still", share: share)
                case .held(let mean, let count):
                    bar("held (\(count) readings)", share: 1)
                    if Self.terminal { Self.say("") }
                    return HeldPose(pose, reading: mean)
                }
            }
        }
        if Self.terminal { Self.say("") }
        guard readings > 0 else {
            throw CalibrationFailure("the sensor gave no reading in \(seconds) s", status: .unavailable)
        }
        throw CalibrationFailure(
            "the device was not held still for \(JSONLineWriter.number(capture.holdSeconds, decimals: 1)) s within \(seconds) s",
            status: .failure)
    }

    /// The readings that came within the next 0.2 s at most, or the reader's problem. The
    /// doorbell is drained, or every later wait would return at once.
    private func arrivals() throws(CalibrationFailure) -> [Sample] {
        if arrived.wait(seconds: 0.2) { arrived.drain() }
        let (samples, problem) = state.withLock { state in
            defer { state.samples.removeAll(keepingCapacity: true) }
            return (state.samples, state.problem)
        }
        if let problem { throw CalibrationFailure(problem, status: .unavailable) }
        return samples
    }

    /// Every reading of the next `seconds`, however the device moves (`orientd doctor`).
    func collect(seconds: Double) throws(CalibrationFailure) -> [Sample] {
        state.withLock { $0.samples.removeAll() }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var samples: [Sample] = []
        while ContinuousClock.now < deadline { samples += try arrivals() }
        return samples
    }

    /// Words for the person holding the device, on standard error.
    static func say(_ text: String) { write(text + "\n") }

    static func write(_ text: String) { _ = try? FileDescriptor.standardError.writeAll(Array(text.utf8)) }

    static let terminal = isatty(2) == 1

    func stop() { reader.stop() }
}
