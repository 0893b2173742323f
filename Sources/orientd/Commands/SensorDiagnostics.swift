import OrientdCore
import OrientdIO
import OrientdLinux

extension Diagnostics {
    /// Says on standard error what a sensor event means for people. Returns the status to
    /// end the command with when the event ends it (a failure, after saying what to do
    /// instead), nil when the command goes on.
    func report(_ event: SensorEvent<AccelerometerInfo>) -> ExitStatus? {
        switch event {
        case .changed(let state, let device, _):
            switch state.words(device: device) {
            case .warning(let text): warning(text)
            case .note(let text): note(text)
            case nil: break
            }
        case .waiting(let message):
            note(message)
        case .warning(let message):
            warning(message)
        case .failed(let message):
            error(message)
            suggestWithoutSensor()
            return .unavailable
        case .attached, .sample, .still, .pace:
            break
        }
        return nil
    }

    /// What to do when there is no sensor to read.
    func suggestWithoutSensor() {
        note("to try orientd without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv")
        note("to wait for a sensor to appear, use: orientd run --wait")
    }
}
