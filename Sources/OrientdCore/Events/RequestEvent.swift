/// `{"event":"request",...}`: a client's request came or went (`request`, `release`, or
/// its connection closed), whether or not the screen had to move. Subscribers learn the
/// allowed set from it, as from `lock`.
public struct RequestEvent: Hashable, Sendable {
    public var time: Double
    /// The connection whose request it is ("client 3", "standard input").
    public var owner: String
    /// What it asked for; nil when the request ended.
    public var requested: RotationSet?
    public var policy: ScreenPolicy
    public var natural: NaturalOrientation

    public init(time: Double, owner: String, requested: RotationSet?, policy: ScreenPolicy, natural: NaturalOrientation) {
        self.time = time
        self.owner = owner
        self.requested = requested
        self.policy = policy
        self.natural = natural
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "request")
        json.add("time", time)
        json.add("by", owner)
        if let requested { json.add("requested", strings: requested.typeNames(natural: natural)) } else { json.addNull("requested") }
        json.add("allowed", strings: policy.effective.typeNames(natural: natural))
        json.add("requests", policy.requests.count)
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
