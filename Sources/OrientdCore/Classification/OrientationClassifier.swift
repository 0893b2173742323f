#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns timestamped acceleration vectors (after the mount matrix) into a device pose.
///
/// A deterministic state machine: it reads time only from the samples, so a replay
/// gives the same answers as the live run. Per reading:
/// 1. time: a gap over `gapReset`, or time going backwards, restarts the filter;
///    a repeated timestamp adds nothing to the filter or to a pending change;
/// 2. plausibility, judged on the reading after a short low-pass that averages out
///    vibration (`vibrationFilter`): a magnitude far from g (tap, jolt, free fall) is left out and
///    marks a disturbance; so does a reading far from the filtered vector (swing, shake);
/// 3. a one-pole low-pass filter with a time constant, not a sample count;
/// 4. a proposal from the filtered vector, with hysteresis against the reported pose:
///    face-up/face-down by tilt (enter and exit angles), upright poses by the direction
///    in the screen plane (a dead band around each diagonal), none at steep tilt;
/// 5. a gate: the proposal must hold for `holdTime` over `minimumSamples` readings,
///    with no disturbance in the last `settleTime`; from upright to face-up or face-down
///    short of `faceSureTilt`, or at any tilt while walking (`WalkingSteps`), it must
///    hold for `faceHoldTime`; leaving flat for an upright pose other than the last one
///    also waits `flatSettleTime` after the device lay flat and after the last
///    disturbance; while walking, from face-up or face-down it must hold
///    `walkingReturnTime` back to the last upright pose, `flatSettleTime` to another.
///    Off flat, an upright pose other than the last needs as clear a direction as a
///    turn from it (`rotationHysteresis`).
///
/// No trigonometry per reading: the angles are turned into cosines once, at init.
public struct OrientationClassifier: Sendable {
    public let parameters: ClassifierParameters

    /// The reported pose.
    public private(set) var orientation: DeviceOrientation = .unknown

    // Precomputed thresholds.
    private let lowMagnitudeSquared: Double
    private let highMagnitudeSquared: Double
    private let disturbanceSquared: Double
    private let switchCosine: Double
    private let initialCosine: Double
    private let faceEnterSine: Double
    private let faceEnterSineSquared: Double
    private let faceExitSine: Double
    private let faceSureSineSquared: Double
    private let initialFaceSine: Double

    // State.
    /// Every reading, low-passed by `vibrationFilter`: what the gates judge.
    private var smoothed = Vector3.zero
    private var hasSmoothed = false
    private var filtered = Vector3.zero
    private var hasFilter = false
    private var lastTime = -Double.infinity
    private var lastDisturbance = -Double.infinity
    private var candidate: DeviceOrientation = .unknown
    private var candidateSince = 0.0
    private var candidateCount = 0
    /// The last upright pose reported: the natural one (portrait) until another is, as
    /// the screen starts there.
    private var lastUpright: DeviceOrientation = .portrait
    /// The last reading at which the device lay flat, and whether the previous one did:
    /// the flat stretch ends at the first reading that is not, however long after (the
    /// adaptive rate leaves readings out at rest).
    private var lastFlat = -Double.infinity
    private var previousFlat = false
    private var steps: WalkingSteps

    public init(parameters: ClassifierParameters = ClassifierParameters()) {
        self.parameters = parameters
        let g = parameters.gravity
        let low = max(0, g - parameters.magnitudeTolerance)
        let high = g + parameters.magnitudeTolerance
        lowMagnitudeSquared = low * low
        highMagnitudeSquared = high * high
        disturbanceSquared = parameters.disturbanceThreshold * parameters.disturbanceThreshold
        let radians = Double.pi / 180
        switchCosine = cos((45 - parameters.rotationHysteresis) * radians)
        initialCosine = cos((45 - parameters.initialMargin) * radians)
        faceEnterSine = sin(parameters.faceEnterTilt * radians)
        faceEnterSineSquared = faceEnterSine * faceEnterSine
        faceExitSine = sin(parameters.faceExitTilt * radians)
        let faceSureSine = sin(parameters.faceSureTilt * radians)
        faceSureSineSquared = faceSureSine * faceSureSine
        initialFaceSine = sin((parameters.faceEnterTilt + parameters.faceExitTilt) / 2 * radians)
        steps = WalkingSteps(gravity: g)
    }

    /// The low-pass filtered acceleration, for diagnostics; zero before the first reading.
    public var filteredAcceleration: Vector3 { filtered }

    /// Feeds one reading; returns the new pose when it changed, else nil.
    @inlinable
    @discardableResult
    public mutating func update(_ sample: Sample) -> DeviceOrientation? {
        update(time: sample.time, acceleration: sample.acceleration)
    }

    /// Feeds one reading; returns the new pose when it changed, else nil.
    public mutating func update(time t: Double, acceleration raw: Vector3) -> DeviceOrientation? {
        let dt = t - lastTime
        if dt > parameters.gapReset || dt < 0 {
            restart()
        } else if dt == 0 {
            // A repeated timestamp carries no new time: it neither moves the filters nor
            // counts towards a change. Without the vibration filter it can still be a
            // disturbance; with it, a reading of no duration weighs nothing.
            if parameters.vibrationFilter == 0, isDisturbance(raw) { lastDisturbance = t }
            return nil
        }
        lastTime = t
        // Before any judgement: a vibration that swings every reading far from g averages
        // to gravity over a few of its periods, while a tap or a swing still stands out.
        if hasSmoothed, parameters.vibrationFilter > 0 {
            smoothed += (raw - smoothed) * (dt / (parameters.vibrationFilter + dt))
        } else {
            smoothed = raw
            hasSmoothed = true
        }
        let a = smoothed

        let magnitudeSquared = a.squaredLength
        steps.update(time: t, magnitudeSquared: magnitudeSquared)
        guard magnitudeSquared >= lowMagnitudeSquared, magnitudeSquared <= highMagnitudeSquared else {
            lastDisturbance = t
            return nil
        }
        if hasFilter {
            if (a - filtered).squaredLength > disturbanceSquared { lastDisturbance = t }
            let weight = dt / (parameters.filterTimeConstant + dt)
            filtered += (a - filtered) * weight
        } else {
            filtered = a
            hasFilter = true
        }

        // |sin tilt| ≥ sin(face-enter-tilt), squared: no square root per reading.
        let flat = filtered.z * filtered.z >= faceEnterSineSquared * filtered.squaredLength
        if flat || previousFlat { lastFlat = t }
        previousFlat = flat

        let proposal = propose(filtered)
        guard proposal != orientation else {
            candidate = orientation
            candidateCount = 0
            return nil
        }
        if proposal != candidate {
            candidate = proposal
            candidateSince = t
            candidateCount = 1
        } else {
            candidateCount += 1
        }
        guard holdBack(proposal, at: t) == nil else { return nil }
        orientation = proposal
        if proposal.isUpright { lastUpright = proposal }
        candidateCount = 0
        return proposal
    }

    /// The gate: the first rule `proposal` does not meet yet at `t`, or nil when it is
    /// reported. It must be proposed by `minimumSamples` readings for its hold, with no
    /// disturbance in the last `settleTime`, and not be handled off flat.
    @inline(__always)
    private func holdBack(_ proposal: DeviceOrientation, at t: Double) -> HoldBack? {
        if candidateCount < parameters.minimumSamples {
            return .readings(have: candidateCount, need: parameters.minimumSamples)
        }
        let (seconds, reason) = hold(for: proposal, at: t)
        if t - candidateSince < seconds { return .hold(seconds: seconds, reason: reason) }
        if t - lastDisturbance < parameters.settleTime { return .disturbance(at: lastDisturbance) }
        if isHandledOffFlat(proposal, at: t) { return .offFlat(since: max(lastFlat, lastDisturbance)) }
        return nil
    }

    /// What the classifier knows after the last reading (`ClassifierEvidence`): computed
    /// here on demand, for `orientd explain`.
    public var evidence: ClassifierEvidence {
        let pending = candidate != orientation && candidateCount > 0
        return ClassifierEvidence(
            time: lastTime, reported: orientation, filtered: hasFilter ? filtered : nil, proposed: pending ? candidate : nil,
            proposedSince: candidateSince, holdBack: pending ? holdBack(candidate, at: lastTime) : nil,
            lastDisturbance: lastDisturbance.isFinite ? lastDisturbance : nil, walking: steps.isWalking(at: lastTime))
    }

    /// How long `proposal` must be proposed before it is reported, and why. From upright to
    /// face-up or face-down, a tilt short of `faceSureTilt` must hold for `faceHoldTime`:
    /// steps swing a device held steeply in a walking hand across face-enter-tilt for a
    /// quarter of a second at a time, while one laid down reads nearly flat at once.
    /// While walking, any tilt must: a step tips a grip held at 75–85° past face-sure-tilt
    /// for a tenth of a second or more.
    /// While walking, back from face-up or face-down to the last upright pose must hold
    /// for `walkingReturnTime`: a step dips a device held nearly flat past
    /// face-exit-tilt, and the next tips it flat again; to another upright pose, which
    /// turns the screen, for `flatSettleTime`: a step can hold a steep diagonal grip in
    /// the other pose for a tenth of a second.
    @inline(__always)
    private func hold(for proposal: DeviceOrientation, at t: Double) -> (Double, HoldBack.HoldReason) {
        if orientation == .unknown { return (parameters.initialHoldTime, .first) }
        if orientation == .faceUp || orientation == .faceDown, proposal.isUpright, steps.isWalking(at: t) {
            return proposal == lastUpright
                ? (max(parameters.holdTime, parameters.walkingReturnTime), .walkingBack)
                : (max(parameters.holdTime, parameters.flatSettleTime), .walkingAway)
        }
        if orientation.isUpright && (proposal == .faceUp || proposal == .faceDown) {
            if steps.isWalking(at: t) { return (max(parameters.holdTime, parameters.faceHoldTime), .walkingToFace) }
            // |sin tilt| < sin(face-sure-tilt), squared.
            if filtered.z * filtered.z < faceSureSineSquared * filtered.squaredLength {
                return (max(parameters.holdTime, parameters.faceHoldTime), .steepToFace)
            }
        }
        return (parameters.holdTime, .usual)
    }

    /// Whether an upright proposal from face-up or face-down comes too soon after the
    /// device lay flat, or after the jolt of being lifted: turned round in the hand, it
    /// passes through upright poses for a tenth of a second each (docs/classifier.md,
    /// "Steady in the hand").
    private func isHandledOffFlat(_ proposal: DeviceOrientation, at t: Double) -> Bool {
        (orientation == .faceUp || orientation == .faceDown) && proposal.isUpright && proposal != lastUpright
            && (t - lastFlat < parameters.flatSettleTime || t - lastDisturbance < parameters.flatSettleTime)
    }

    private func isDisturbance(_ a: Vector3) -> Bool {
        let m = a.squaredLength
        return m < lowMagnitudeSquared || m > highMagnitudeSquared
            || (hasFilter && (a - filtered).squaredLength > disturbanceSquared)
    }

    /// Forgets the filter and any pending change, keeping the reported pose.
    public mutating func restart() {
        hasFilter = false
        filtered = .zero
        hasSmoothed = false
        candidate = orientation
        candidateCount = 0
        lastDisturbance = -Double.infinity
        steps.reset()
    }

    /// The pose the filtered vector argues for, given the reported pose (hysteresis).
    /// Returns the reported pose when the evidence is not strong enough for a change.
    /// Inlined: called as a function it took a copy of the whole classifier (288 bytes)
    /// for every reading, 7 % of `replay --fast`'s CPU time (perf stat).
    @inline(__always)
    private func propose(_ f: Vector3) -> DeviceOrientation {
        let length = f.length
        guard length > 0 else { return orientation }
        let tiltSine = f.z / length
        let current = orientation

        // Face-up and face-down.
        switch current {
        case .faceUp, .faceDown:
            if tiltSine >= faceEnterSine { return .faceUp }
            if tiltSine <= -faceEnterSine { return .faceDown }
            // Leaving a face state needs the screen plane to carry a clear direction.
            if abs(tiltSine) > faceExitSine { return current }
        case .unknown:
            if tiltSine >= initialFaceSine { return .faceUp }
            if tiltSine <= -initialFaceSine { return .faceDown }
        default:
            if tiltSine >= faceEnterSine { return .faceUp }
            if tiltSine <= -faceEnterSine { return .faceDown }
            if abs(tiltSine) > faceExitSine { return current }
        }

        // Upright poses: the nearest axis in the screen plane, with hysteresis.
        // Axes (Linux frame, gravity reading): portrait (0,-1), landscape-left (-1,0),
        // upside-down (0,+1), landscape-right (+1,0).
        let planeLength = (f.x * f.x + f.y * f.y).squareRoot()
        guard planeLength > 0 else { return current }
        let nearest: DeviceOrientation
        let alignment: Double
        if abs(f.y) >= abs(f.x) {
            nearest = f.y <= 0 ? .portrait : .portraitUpsideDown
            alignment = abs(f.y)
        } else {
            nearest = f.x <= 0 ? .landscapeLeft : .landscapeRight
            alignment = abs(f.x)
        }
        // Off face-up or face-down the screen still shows the last upright pose, so
        // another one must be as clear as a turn from it: a walking hand that dips a
        // flat-held device at a diagonal would otherwise turn the screen.
        let shown = current == .unknown ? current : lastUpright
        if nearest == shown { return shown }
        let cosine = shown.isUpright ? switchCosine : initialCosine
        return alignment >= cosine * planeLength ? nearest : shown
    }
}
