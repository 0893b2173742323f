/// `{"event":"suggestion",...}`: a rotation offered while the lock holds the screen, or
/// the offer withdrawn (`RotationSuggestion`). A desktop shows the offer as a button or a
/// notification whose action runs `orientd ctl accept`.
/// ```
/// {"event":"suggestion","time":4.1,"state":"offered","screen":"landscape-primary","angle":90,"device":"landscape-left","version":1}
/// {"event":"suggestion","time":14.1,"state":"withdrawn","screen":"landscape-primary","angle":90,"device":"landscape-left","reason":"timeout","version":1}
/// ```
public struct SuggestionEvent: Hashable, Sendable {
    public var time: Double
    public var change: RotationSuggestion.Change
    public var natural: NaturalOrientation

    public init(time: Double, change: RotationSuggestion.Change, natural: NaturalOrientation) {
        self.time = time
        self.change = change
        self.natural = natural
    }

    public var jsonLine: [UInt8] {
        let (offer, reason): (RotationSuggestion.Offer, RotationSuggestion.Withdrawal?) =
            switch change {
            case .offered(let offer): (offer, nil)
            case .withdrawn(let offer, let reason): (offer, reason)
            }
        var json = JSONLineWriter()
        json.add("event", "suggestion")
        json.add("time", time)
        json.add("state", reason == nil ? "offered" : "withdrawn")
        json.add("screen", natural.screenType(of: offer.rotation).rawValue)
        json.add("angle", offer.rotation.angle)
        json.add("device", offer.device.rawValue)
        if let reason { json.add("reason", reason.rawValue) }
        json.add("version", OrientationEvent.schemaVersion)
        return json.line()
    }
}
