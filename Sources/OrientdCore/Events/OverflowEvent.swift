/// `{"event":"overflow",...}`: a consumer read too slowly and `dropped` bytes of events
/// were discarded for it; the current state follows, so it is up to date again.
public struct OverflowEvent: Hashable, Sendable {
    public var time: Double
    public var droppedBytes: Int

    public init(time: Double, droppedBytes: Int) {
        self.time = time
        self.droppedBytes = droppedBytes
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "overflow")
        json.add("time", time)
        json.add("dropped", droppedBytes)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
