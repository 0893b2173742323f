/// What each source says about the mode, and which one is believed: the most trusted
/// source that answers (a switch over the hinge angle over a command). A source that
/// stops answering (a switch unplugged, a hinge angle undefined, `mode auto`) hands the
/// decision to the next.
public struct ModeReports: Hashable, Sendable {
    private var reports: [ModeSource: DeviceMode] = [:]

    /// The mode believed now and where it came from; nil when no source answers.
    public struct Decision: Hashable, Sendable {
        public var mode: DeviceMode
        public var source: ModeSource
    }

    public init() {}

    /// A source's new answer; nil when it has none (any more).
    public mutating func report(_ mode: DeviceMode?, from source: ModeSource) {
        reports[source] = mode
    }

    public func mode(from source: ModeSource) -> DeviceMode? { reports[source] }

    public var decision: Decision? {
        for source in ModeSource.allCases {
            if let mode = reports[source] { return Decision(mode: mode, source: source) }
        }
        return nil
    }
}
