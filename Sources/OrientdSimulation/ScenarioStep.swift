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

    /// What a step does. `repeat` and `end` are not steps: the parser expands them first.
    enum Command: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Sets the first pose; the one step with no duration and no samples of its own.
        case start
        case hold, rotate
        case pickUp = "pick-up"
        case putDown = "put-down"
        case flip, shake, move

        /// The word in the scenario, so messages quote what the author wrote.
        var description: String { rawValue }

        /// Takes a pose to go to.
        var takesPose: Bool { [.start, .rotate, .pickUp, .putDown].contains(self) }

        /// The kind of time-line segment the step makes; nil for `start`, which makes none.
        var segmentKind: Segment.Kind? { Segment.Kind(rawValue: rawValue) }
    }

    var command: Command
    var line: Int
    var pose = PoseSpec()
    var duration: Double?
    var options: [Option] = []
    var modifiers: [ModifierUse] = []
    /// nil: the default label of the command; `.some(nil)`: `expect -`.
    var expect: PoseLabel?? = nil
    /// `flip long` or `flip short`.
    var flipAxis: String?

    /// The words a step line may begin with, for messages.
    static let words = Command.allCases.map(\.rawValue) + ["repeat", "end"]
}
