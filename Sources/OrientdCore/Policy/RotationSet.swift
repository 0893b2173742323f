/// A set of screen rotations: what is supported, what a lock allows.
public struct RotationSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0b1111 }

    public init(_ rotation: Rotation) {
        switch rotation {
        case .degrees0: self = .degrees0
        case .degrees90: self = .degrees90
        case .degrees180: self = .degrees180
        case .degrees270: self = .degrees270
        }
    }

    public init(_ rotations: some Sequence<Rotation>) {
        self = []
        for r in rotations { insert(RotationSet(r)) }
    }

    public static let degrees0 = RotationSet(rawValue: 1)
    public static let degrees90 = RotationSet(rawValue: 2)
    public static let degrees180 = RotationSet(rawValue: 4)
    public static let degrees270 = RotationSet(rawValue: 8)
    public static let all: RotationSet = [.degrees0, .degrees90, .degrees180, .degrees270]

    public func contains(_ rotation: Rotation) -> Bool { contains(RotationSet(rotation)) }

    /// Members in ascending angle.
    public var rotations: [Rotation] { Rotation.allCases.filter { contains($0) } }

    /// The member to show when the device's own pose is not allowed: the one nearest the
    /// given rotation (the pose, or where the screen is), ties going to the smaller angle,
    /// which puts the natural orientation and the primary types first.
    public func preferred(near rotation: Rotation?) -> Rotation? {
        let members = rotations
        guard let rotation else { return members.first }
        return members.min { a, b in
            let da = a.quarterTurns(to: rotation)
            let db = b.quarterTurns(to: rotation)
            return da != db ? da < db : a < b
        }
    }

    /// W3C type names on a panel of the given natural orientation, in angle order.
    public func typeNames(natural: NaturalOrientation) -> [String] {
        rotations.map { natural.screenType(of: $0).rawValue }
    }
}
