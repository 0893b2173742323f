/// The state of the classifier's evidence at one moment, for people (`orientd explain
/// --at`): the pose reported, the pose the readings argue for and what holds it back,
/// the filtered gravity's direction, the last disturbance and whether someone walks.
public struct MomentExplanation: Hashable, Sendable {
    /// The moment asked for, and the evidence after the last reading classified by then.
    public var at: Double
    public var evidence: ClassifierEvidence
    public var proposal: EvidenceTrail.Proposal?

    public init(at: Double, evidence: ClassifierEvidence, proposal: EvidenceTrail.Proposal?) {
        self.at = at
        self.evidence = evidence
        self.proposal = proposal
    }

    public var line: String {
        let n = { (value: Double, decimals: Int) in JSONLineWriter.number(value, decimals: decimals) }
        var parts = ["\(n(at, 6)) reported \(evidence.reported)"]
        if let tilt = evidence.tilt {
            var direction = "gravity tilted \(n(tilt, 0))°"
            if let turn = evidence.turn { direction += ", turned \(n(turn, 0))° from portrait" }
            parts.append(direction)
        } else {
            parts.append("no plausible reading yet")
        }
        if let proposed = evidence.proposed, let proposal, proposal.pose == proposed {
            parts.append(EventExplanation.story(of: proposal, evidence: evidence, now: evidence.holdBack))
        } else {
            parts.append("the readings argue for no other pose")
            if evidence.walking { parts.append("carried by someone walking") }
        }
        if let disturbance = evidence.lastDisturbance { parts.append("last disturbance at \(n(disturbance, 3)) s") }
        if evidence.time < at { parts.append("last reading classified at \(n(evidence.time, 6)) s") }
        return parts.joined(separator: "; ")
    }
}
