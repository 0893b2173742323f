/// `{"event":"sensor",...}`: the sensor was attached, lost, went silent or sends again,
/// or its reading paused because nothing consumes the events, or resumed.
public struct SensorStateEvent: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// `read` is how it is read ("buffered" or "polled"); `rate` its sampling
        /// frequency, when it has one.
        case attached(name: String?, location: SensorLocation, read: String, rate: Double?)
        case stalled(seconds: Double)
        /// Stalled, and the sensor answers no request either (`BufferSilence.hungAfter`).
        case hung(seconds: Double)
        case resumed(afterSeconds: Double)
        case lost(reason: String)
        /// Not read: nothing consumes the events (`ReadingDemand`).
        case idle
        /// Read again after `idle`, or another way (`reason`: its buffer went silent, or
        /// sends again); `read` as in `attached`.
        case reading(read: String, reason: String? = nil)
    }

    public var state: State
    public var device: String
    public var time: Double

    public init(_ state: State, device: String, time: Double) {
        self.state = state
        self.device = device
        self.time = time
    }

    /// Its state, time and device, then the state's own fields.
    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "sensor")
        switch state {
        case .attached: json.add("state", "attached")
        case .stalled: json.add("state", "stalled")
        case .hung: json.add("state", "hung")
        case .resumed: json.add("state", "resumed")
        case .lost: json.add("state", "lost")
        case .idle: json.add("state", "idle")
        case .reading: json.add("state", "reading")
        }
        json.add("time", time)
        json.add("device", device)
        switch state {
        case .attached(let name, let location, let read, let rate):
            json.add("name", name)
            json.add("location", location.rawValue)
            json.add("read", read)
            if let rate { json.add("rate", rate, decimals: 3) } else { json.addNull("rate") }
        case .stalled(let seconds), .hung(let seconds), .resumed(let seconds):
            json.add("silent", seconds, decimals: 3)
        case .lost(let reason):
            json.add("reason", reason)
        case .idle:
            break
        case .reading(let read, let reason):
            json.add("read", read)
            if let reason { json.add("reason", reason) }
        }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
