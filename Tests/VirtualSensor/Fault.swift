import ArgumentParser
import OrientdCore

/// A way the sensor misbehaves for a while, as real hardware does, on the recording's
/// clock: `KIND@START+SECONDS` (`quiet@4+3`: from 4 s into the recording, for 3 s).
struct Fault: ExpressibleByArgument, Equatable {
    enum Kind: String, CaseIterable {
        /// The hub sends no input reports (the buffer gets nothing) but still answers
        /// reads of its raw values: a dead buffer, a live sensor (as iio-sensor-proxy's users have reported).
        case quiet
        /// Every reading all zero, reports and reads.
        case zeros
        /// Every reading saturated: ±32767 counts.
        case garbage
        /// The device goes away at START and comes back, as a new device, SECONDS later.
        case replug
        /// The hub loses its settings (power and reporting state, report interval) at
        /// START and for SECONDS, as sensors do over a suspend: it sends nothing until a
        /// driver sets it up again after that.
        case forget
        /// The hub answers nothing at all: no input reports, and no request (get or set,
        /// of any report) is answered, so the driver's waits run to their time-outs, as
        /// with a hung sensor firmware. After it, all is as before.
        case hang
        /// The values stop updating: every reading is the one due at START, to the last
        /// bit (a chip's registers that nothing fills any more, a hub repeating itself).
        case freeze

        /// What an I2C chip on i2c-stub can do: its registers can hold anything and it can
        /// be deleted and instantiated again, but it has no reports to stop and no
        /// requests to leave unanswered.
        var onRegisters: Bool { [.zeros, .garbage, .freeze, .replug].contains(self) }
    }

    let kind: Kind
    let start: Double
    let seconds: Double

    init(kind: Kind, start: Double, seconds: Double) {
        self.kind = kind
        self.start = start
        self.seconds = seconds
    }

    init?(argument: String) {
        guard let at = argument.firstIndex(of: "@"), let plus = argument[at...].firstIndex(of: "+"),
            let kind = Kind(rawValue: String(argument[..<at])),
            let start = Double(argument[argument.index(after: at)..<plus]),
            let seconds = Double(argument[argument.index(after: plus)...]), start >= 0, seconds > 0
        else { return nil }
        self.init(kind: kind, start: start, seconds: seconds)
    }

    static var allValueStrings: [String] { Kind.allCases.map { "\($0.rawValue)@START+SECONDS" } }

    /// Whether it is on at `time` on the recording's clock.
    func isOn(at time: Double) -> Bool { time >= start && time < start + seconds }

    /// What a sensor under `faults` reads at `time` instead of `sample`; `recorded` gives
    /// the recording's sample at a time on its clock.
    static func reading(_ sample: Sample, at time: Double, under faults: [Fault], recorded: (Double) -> Sample) -> Sample {
        for fault in faults where fault.isOn(at: time) {
            switch fault.kind {
            case .zeros: return Sample(time: sample.time, acceleration: Vector3(0, 0, 0))
            case .garbage:
                let full = 32767 / SensorHubReports.countsPerUnit
                return Sample(time: sample.time, acceleration: Vector3(full, full, -full))
            case .freeze: return Sample(time: sample.time, acceleration: recorded(fault.start).acceleration)
            case .quiet, .replug, .forget, .hang: continue
            }
        }
        return sample
    }
}
