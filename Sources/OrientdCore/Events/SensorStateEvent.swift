/// `{"event":"sensor",...}`: the sensor was attached, lost, went silent or sends again.
public enum SensorStateEvent {
    /// `read` is how it is read ("buffered" or "polled"); `rate` its sampling frequency,
    /// when it has one.
    public static func attached(
        device: String, name: String?, location: SensorLocation, read: String, rate: Double?, time: Double
    ) -> [UInt8] {
        line("attached", device: device, time: time) { json in
            json.add("name", name)
            json.add("location", location.rawValue)
            json.add("read", read)
            if let rate { json.add("rate", rate, decimals: 3) } else { json.addNull("rate") }
        }
    }

    public static func stalled(device: String, seconds: Double, time: Double) -> [UInt8] {
        line("stalled", device: device, time: time) { $0.add("silent", seconds, decimals: 3) }
    }

    public static func resumed(device: String, afterSeconds seconds: Double, time: Double) -> [UInt8] {
        line("resumed", device: device, time: time) { $0.add("silent", seconds, decimals: 3) }
    }

    public static func lost(device: String, reason: String, time: Double) -> [UInt8] {
        line("lost", device: device, time: time) { $0.add("reason", reason) }
    }

    /// Its state, time and device, then the state's own fields.
    private static func line(_ state: String, device: String, time: Double, _ fields: (inout JSONLineWriter) -> Void) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "sensor")
        json.add("state", state)
        json.add("time", time)
        json.add("device", device)
        fields(&json)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
