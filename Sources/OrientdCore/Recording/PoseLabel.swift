/// What a labelled recording's `expect` column says about one sample. `-` (the device is
/// moving; not judged) is nil wherever a label is optional.
public enum PoseLabel: Hashable, Sendable {
    /// A careful observer names this pose.
    case pose(DeviceOrientation)
    /// An ambiguous pose (a steep tilt, near a diagonal): any answer is right, but the
    /// answer must not change while it lasts.
    case stable

    /// The word in the `expect` column, or nil for one that is not a label.
    public init?(word: Substring) {
        if word == "stable" {
            self = .stable
        } else if let pose = DeviceOrientation(rawValue: String(word)) {
            self = .pose(pose)
        } else {
            return nil
        }
    }

    public var word: String {
        switch self {
        case .pose(let pose): pose.rawValue
        case .stable: "stable"
        }
    }

    /// Every word the column takes, for messages.
    public static let words = DeviceOrientation.allCases.map(\.rawValue) + ["stable", "-"]
}
