/// `{"event":"stopping",...}`: the daemon is ending on a signal; subscribers will see
/// end of file next.
public struct StoppingEvent: Hashable, Sendable {
    public var time: Double
    /// The signal's name: "SIGTERM", "SIGINT".
    public var reason: String

    public init(time: Double, reason: String) {
        self.time = time
        self.reason = reason
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "stopping")
        json.add("time", time)
        json.add("reason", reason)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
