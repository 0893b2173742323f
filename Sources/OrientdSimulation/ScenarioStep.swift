import OrientdCore

/// One step line of a scenario, read but not yet placed on the time line.
struct ScenarioStep: Sendable {
    struct Option: Sendable, Hashable {
        var key: String
        var value: Substring
    }

    struct ModifierUse: Sendable {
        var word: String
        var options: [Option]
    }

    var command: String
    var line: Int
    var pose = PoseSpec()
    var duration: Double?
    var options: [Option] = []
    var modifiers: [ModifierUse] = []
    /// nil: the default label of the command; `.some(nil)`: `expect -`.
    var expect: PoseLabel?? = nil
    /// `flip long` or `flip short`.
    var flipAxis: String?

    /// Commands, with what they take, for parsing and for messages.
    static let commands = ["start", "hold", "rotate", "pick-up", "put-down", "flip", "shake", "move", "repeat", "end"]
    static let commandsWithPose: Set<String> = ["start", "rotate", "pick-up", "put-down"]
}
