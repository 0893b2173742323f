/// `{"event":"overflow",...}`: a consumer read too slowly and `dropped` bytes of events
/// were discarded for it; the current state follows, so it is up to date again.
public enum OverflowEvent {
    public static func line(time: Double, droppedBytes: Int) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "overflow")
        json.add("time", time)
        json.add("dropped", droppedBytes)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
