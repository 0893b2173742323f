/// `{"event":"lock",...}`: the rotation lock changed (locked, unlocked, or another set),
/// whether or not the screen had to move. Subscribers learn the allowed set from it.
public enum LockEvent {
    public static func line(time: Double, policy: ScreenPolicy, natural: NaturalOrientation, by source: String) -> [UInt8] {
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
