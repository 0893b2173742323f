/// A client's request for a set of orientations, which lasts as long as the client's
/// connection: the layer an iOS view controller's supported orientations are while it is
/// on screen. Never saved.
public struct ScreenRequest: Hashable, Sendable {
    /// The connection that holds it ("client 3", "standard input"): unique while it lives.
    public var owner: String
    public var set: RotationSet

    public init(owner: String, set: RotationSet) {
        self.owner = owner
        self.set = set
    }
}
