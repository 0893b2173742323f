/// `{"event":"lock",...}`: the rotation lock changed (locked, unlocked, or another set),
/// whether or not the screen had to move. Subscribers learn the allowed set from it.
public struct LockEvent: Hashable, Sendable {
    public var time: Double
    public var policy: ScreenPolicy
    public var natural: NaturalOrientation
    /// Who changed it: "stdin", "socket", "configuration".
    public var source: String

    public init(time: Double, policy: ScreenPolicy, natural: NaturalOrientation, by source: String) {
        self.time = time
        self.policy = policy
        self.natural = natural
        self.source = source
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "lock")
        json.add("time", time)
        json.add("locked", policy.isLocked)
        json.add("allowed", strings: policy.effective.typeNames(natural: natural))
        json.add("by", source)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
