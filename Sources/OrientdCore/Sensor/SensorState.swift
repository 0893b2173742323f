/// What became of a sensor: the one vocabulary its reader reports in
/// (`SensorEvent.changed`), subscribers read (`SensorStateEvent`), the journal says
/// (`words(device:)`) and a trouble follows from (`SensorTrouble.after`). A new state is a
/// case here; the compiler then asks each of those for its meaning.
public enum SensorState: Hashable, Sendable {
    /// Opened and read `read`; `rate` its sampling frequency, when it has one. A reader
    /// says it with the sensor's whole description (`SensorEvent.attached`).
    case attached(name: String?, location: SensorLocation, read: SensorReadPath, rate: Double?)
    /// A buffered sensor has sent nothing for `seconds`: its stream is stuck
    /// (`BufferSilence`).
    case stalled(seconds: Double)
    /// Stalled, and it answers no request either: a write of its rate has waited
    /// `BufferSilence.hungAfter`.
    case hung(seconds: Double)
    /// A stalled sensor sends again, after `afterSeconds` of silence.
    case resumed(afterSeconds: Double)
    /// Gone or failed; its reader looks for it (or another) again.
    case lost(reason: String)
    /// Not read: nothing consumes the events (`ReadingDemand`); a buffered sensor's buffer
    /// is disabled, so its driver can power it down.
    case idle
    /// Read again after `idle` (`reason` nil), or read another way `because` its buffer
    /// went silent or sends again.
    case reading(read: SensorReadPath, because: String? = nil)

    /// Its name in `{"event":"sensor","state":...}`.
    public var name: String {
        switch self {
        case .attached: "attached"
        case .stalled: "stalled"
        case .hung: "hung"
        case .resumed: "resumed"
        case .lost: "lost"
        case .idle: "idle"
        case .reading: "reading"
        }
    }

    /// What the journal says of it, for people.
    public enum Words: Equatable, Sendable {
        case warning(String)
        case note(String)
    }

    /// What the journal says when `device` comes to this state. Nil for `attached`,
    /// whose line names the sensor and why it is read as it is (`SensorAttachment`).
    public func words(device: String) -> Words? {
        switch self {
        case .attached:
            nil
        case .lost(let reason):
            .warning("\(device) lost: \(reason); waiting for it to return")
        case .stalled(let seconds):
            .warning("\(device) has sent nothing for \(JSONLineWriter.number(seconds, decimals: 1)) s; still waiting for it")
        case .hung(let seconds):
            .warning(BufferSilence.hungWarning(device, seconds: seconds))
        case .resumed(let seconds):
            .note("\(device) sends again after \(JSONLineWriter.number(seconds, decimals: 1)) s")
        case .idle:
            .note("\(device) is not read: nothing consumes the events (no subscriber, no hook, output to the journal)")
        case .reading(let read, let because):
            .note("\(device) is read \(read.rawValue): \(because ?? "something consumes the events again")")
        }
    }
}
