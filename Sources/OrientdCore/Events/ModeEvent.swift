/// `{"event":"mode",...}`: the convertible went into laptop or tablet mode, or its mode
/// became unknown (`"mode":null`: no source answers any more).
public struct ModeEvent: Hashable, Sendable {
    public var time: Double
    public var decision: ModeReports.Decision?
    /// The hinge angle in degrees, nil when it cannot be computed.
    public var hinge: Double?

    public init(time: Double, decision: ModeReports.Decision?, hinge: Double?) {
        self.time = time
        self.decision = decision
        self.hinge = hinge
    }

    public var jsonLine: [UInt8] {
        var json = JSONLineWriter()
        json.add("event", "mode")
        json.add("time", time)
        json.add("mode", decision?.mode.rawValue)
        json.add("source", decision?.source.rawValue)
        if let hinge { json.add("hinge", hinge, decimals: 1) } else { json.addNull("hinge") }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
