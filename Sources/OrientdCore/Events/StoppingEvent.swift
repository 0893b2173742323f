/// `{"event":"stopping",...}`: the daemon is ending on a signal; subscribers will see
/// end of file next.
public enum StoppingEvent {
    public static func line(time: Double, reason: String) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "stopping")
        json.add("time", time)
        json.add("reason", reason)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
