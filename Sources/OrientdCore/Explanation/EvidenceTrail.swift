/// The story of the pose the readings argue for, reading by reading: since when, over how
/// many readings, and what held it back and until when. Fed the classifier's evidence
/// after every reading it classifies; `orientd explain` tells it when the pose is
/// reported.
public struct EvidenceTrail: Hashable, Sendable {
    /// One pose argued for without a break.
    public struct Proposal: Hashable, Sendable {
        public var pose: DeviceOrientation
        public var since: Double
        /// The readings classified since `since`, the one that reported it included.
        public var readings = 0
        /// What held it back, in order: one entry for each stretch of readings held back
        /// by the same rule, with the last reading's figures.
        public var delays: [Delay] = []
    }

    /// A stretch of readings held back by one rule of the gate.
    public struct Delay: Hashable, Sendable {
        public var holdBack: HoldBack
        public var from: Double
        public var until: Double
    }

    /// The pose argued for at the last reading: the proposed one, or else the reported.
    public private(set) var current: Proposal?

    public init() {}

    public mutating func observe(_ evidence: ClassifierEvidence) {
        if let proposed = evidence.proposed {
            if current?.pose != proposed || current?.since != evidence.proposedSince {
                current = Proposal(pose: proposed, since: evidence.proposedSince)
            }
        } else if current?.pose != evidence.reported {
            // The reported pose argued for again after a proposal fell through.
            current = Proposal(pose: evidence.reported, since: evidence.time)
        }
        guard var proposal = current else { return }
        current = nil  // so the delays are changed in place, not copied
        proposal.readings += 1
        if let holdBack = evidence.holdBack {
            if let last = proposal.delays.indices.last, proposal.delays[last].holdBack.rule == holdBack.rule {
                proposal.delays[last].holdBack = holdBack
                proposal.delays[last].until = evidence.time
            } else {
                proposal.delays.append(Delay(holdBack: holdBack, from: evidence.time, until: evidence.time))
            }
        }
        current = proposal
    }

    /// Forgets the story: the classifier started afresh (a new sensor, a pause).
    public mutating func reset() { current = nil }
}
