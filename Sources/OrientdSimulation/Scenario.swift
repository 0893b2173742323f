import OrientdCore

/// A scenario: what a device goes through, step by step, and the sensor that records it.
///
/// Read from the small line-based language described in Recordings/README.md. Reading
/// it places every step on the time line and works out every attitude, so that all
/// mistakes, including physically dishonest labels, are reported here with their line,
/// and a `Simulator` built from it cannot fail.
public struct Scenario: Sendable {
    /// The `name:` setting, or the file name without directory and extension.
    public private(set) var name: String
    /// The `description:` setting: the situation, in words a user would recognise.
    public private(set) var description: String
    /// Where the scenario was read from, as given; it names the scenario in messages and
    /// in the recording's `generator:` line.
    public let source: String
    var settings: SensorSettings
    var segments: [Segment]

    public init(parsing text: String, source: String) throws(ScenarioError) {
        self = try ScenarioParser(source: source, text: text).parse()
    }

    init(name: String, description: String, source: String, settings: SensorSettings, segments: [Segment]) {
        self.name = name
        self.description = description
        self.source = source
        self.settings = settings
        self.segments = segments
    }

    /// Seconds from the start of the first step to the end of the last.
    public var duration: Double { segments.last?.end ?? 0 }

    /// Samples per second.
    public var rate: Double { settings.rate }

    /// The mounting written to the recording, if the scenario gives one.
    public var mountMatrix: MountMatrix? { settings.mountMatrix }

    /// The file name without directory and extension: the default name.
    static func baseName(of source: String) -> String {
        var name = Substring(source)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return String(name)
    }
}
