/// What the daemon keeps across restarts: the rotation lock a user or an application set
/// at run time. The file is a few `key value` lines so a person can read it:
///
///     # orientd state; written by orientd, replaced atomically
///     version 1
///     lock 90,270
///
/// `lock none` means unlocked. Angles, not W3C names, because the names depend on the
/// natural orientation, which a configuration change may alter.
public struct PersistedState: Hashable, Sendable {
    public static let version = 1
    public var lock: RotationSet?

    public init(lock: RotationSet?) {
        self.lock = lock
    }

    public var text: String {
        let lockText = lock.map { $0.rotations.map { String($0.angle) }.joined(separator: ",") } ?? "none"
        return "# orientd state; written by orientd, replaced atomically\nversion \(Self.version)\nlock \(lockText)\n"
    }

    /// Reads a state file's text; `source` names the file in the issue.
    public init(parsing text: String, source: String) throws(InputIssue) {
        var version: Int?
        var lock: RotationSet??
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" { continue }
            let key = line.prefix { $0 != " " }
            let value = line.dropFirst(key.count).drop { $0 == " " }
            func issue(_ message: String) -> InputIssue {
                InputIssue(source: source, line: index + 1, message: message)
            }
            switch key {
            case "version":
                guard let v = Int(value), v == Self.version else {
                    throw issue("unsupported state version '\(value)' (this orientd writes \(Self.version))")
                }
                version = v
            case "lock":
                if value == "none" {
                    lock = .some(nil)
                    continue
                }
                var set: RotationSet = []
                for word in value.split(separator: ",") {
                    guard let angle = Int(word), let rotation = Rotation(rawValue: angle) else {
                        throw issue("'\(word)' is not an angle of 0, 90, 180 or 270")
                    }
                    set.insert(RotationSet(rotation))
                }
                guard !set.isEmpty else { throw issue("an empty lock") }
                lock = .some(set)
            default:
                throw issue("unknown key '\(key)'")
            }
        }
        guard version != nil else { throw InputIssue(source: source, line: 0, message: "no 'version' line") }
        guard let lock else { throw InputIssue(source: source, line: 0, message: "no 'lock' line") }
        self.lock = lock
    }
}
