/// `{"event":"sensor",...}`: the sensor was attached, lost, went silent or sends again,
/// or its reading paused because nothing consumes the events, or resumed.
public struct SensorStateEvent: Hashable, Sendable {
    public var state: SensorState
    public var device: String
    public var time: Double

    public init(_ state: SensorState, device: String, time: Double) {
        self.state = state
        self.device = device
        self.time = time
    }

    /// Its state, time and device, then the state's own fields.
    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "sensor")
        json.add("state", state.name)
        json.add("time", time)
        json.add("device", device)
        switch state {
        case .attached(let name, let location, let read, let rate):
            json.add("name", name)
            json.add("location", location.rawValue)
            json.add("read", read.rawValue)
            if let rate { json.add("rate", rate, decimals: 3) } else { json.addNull("rate") }
        case .stalled(let seconds), .hung(let seconds), .resumed(let seconds):
            json.add("silent", seconds, decimals: 3)
        case .lost(let reason):
            json.add("reason", reason)
        case .idle:
            break
        case .reading(let read, let because):
            json.add("read", read.rawValue)
            if let because { json.add("reason", because) }
        }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
