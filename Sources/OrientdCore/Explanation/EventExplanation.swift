/// Why one orientation event came, for people: which pose the readings argued for, from
/// when, what held it back, and which layer put the screen where it is. One line,
/// beginning with the event's time as `orientd replay` prints it.
public struct EventExplanation: Hashable, Sendable {
    public var event: OrientationEvent
    /// The story of the reported pose, when the event is the classifier's.
    public var proposal: EvidenceTrail.Proposal?
    /// The classifier's evidence at the event.
    public var evidence: ClassifierEvidence
    /// The layer that decided the screen, and the convertible's mode.
    public var decidedBy: PolicyLayer
    public var mode: DeviceMode?

    /// At most this many delays are told; the earlier ones are counted.
    static let delaysTold = 4

    public init(
        event: OrientationEvent, proposal: EvidenceTrail.Proposal?, evidence: ClassifierEvidence, decidedBy: PolicyLayer,
        mode: DeviceMode?
    ) {
        self.event = event
        self.proposal = proposal
        self.evidence = evidence
        self.decidedBy = decidedBy
        self.mode = mode
    }

    /// `time device screen (cause): why the device; why the screen.`
    public var line: String {
        "\(Self.number(event.time, decimals: 6)) \(event.device) \(event.screenType.rawValue) (\(event.cause.rawValue)): \(why); \(screen)."
    }

    /// Why the device pose is what it is, or what else made the event.
    var why: String {
        switch event.cause {
        case .start, .sensor:
            guard let proposal, proposal.pose == event.device else {
                return "the classifier reported \(event.device)"
            }
            return Self.story(of: proposal, evidence: evidence)
        case .lock: return "a rotation lock was applied"
        case .unlock: return "the rotation lock was lifted"
        case .configuration: return "the supported set changed"
        case .request: return "an app asked for a set of orientations"
        case .release: return "an app's request ended"
        case .mode: return "the machine went into \(mode.map { "\($0.rawValue) mode" } ?? "an unknown mode")"
        }
    }

    /// The readings' case for `proposal`: since when, how many, how clear at the end,
    /// and what held it back until when; `now`, what holds it back still.
    static func story(of proposal: EvidenceTrail.Proposal, evidence: ClassifierEvidence, now: HoldBack? = nil) -> String {
        var text = "the readings argued for \(proposal.pose) from \(number(proposal.since)) s (\(proposal.readings) readings"
        if let tilt = evidence.tilt {
            text += "; at the end tilted \(number(tilt, decimals: 0))°"
            if let turn = evidence.turn, let angle = proposal.pose.rotation?.angle {
                let off = abs((turn - Double(angle) + 540).truncatingRemainder(dividingBy: 360) - 180)
                text += ", turned \(number(off, decimals: 0))° from it in the screen plane"
            }
        }
        if evidence.walking { text += ", carried by someone walking" }
        text += ")"
        // Too few readings comes first in every story: told only when it was the last wait.
        var delays = proposal.delays
        if let now, delays.last?.holdBack.rule == now.rule { delays.removeLast() }
        if delays.count > 1 || now != nil { delays.removeAll { if case .readings = $0.holdBack { true } else { false } } }
        if !delays.isEmpty {
            let told = delays.suffix(delaysTold)
            text += "; it waited for "
            if delays.count > told.count { text += "\(delays.count - told.count) earlier delays, then " }
            text += told.map { "\($0.holdBack) until \(number($0.until)) s" }.joined(separator: ", then for ")
        }
        if let now { return text + "; now it waits for \(now)" }
        return delays.isEmpty ? text + "; nothing held it back" : text
    }

    /// Which layer put the screen where it is.
    var screen: String {
        let type = event.screenType.rawValue
        let verb =
            event.previousScreen == nil
            ? "the screen starts at \(type)" : event.screenChanged ? "the screen turns to \(type)" : "the screen stays \(type)"
        if !event.device.isUpright, decidedBy == .device || event.cause == .sensor || event.cause == .start {
            return event.device == .unknown ? "\(verb): no pose yet" : "\(verb): \(event.device) does not turn it"
        }
        switch decidedBy {
        case .device: return "\(verb), following the device"
        case .supported: return "\(verb): the configured set (supported) does not allow the device's pose"
        case .lock: return "\(verb): the rotation lock holds it"
        case .request: return "\(verb): an app's request holds it"
        case .mode: return "\(verb): laptop mode holds it"
        }
    }

    static func number(_ value: Double, decimals: Int = 3) -> String { JSONLineWriter.number(value, decimals: decimals) }
}
