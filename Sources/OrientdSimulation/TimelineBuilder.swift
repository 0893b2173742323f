import OrientdCore

/// Places scenario steps one after the other on the time line, working out each step's
/// attitudes, its movement and its label, and rejecting what is physically impossible
/// or dishonestly labelled.
struct TimelineBuilder {
    let source: String
    let settings: SensorSettings
    private(set) var segments: [Segment] = []
    private(set) var duration = 0.0
    /// Where the device is at the end of the steps so far.
    private var attitude = Attitude(roll: 0, tilt: 30)
    private var quaternion = Attitude(roll: 0, tilt: 30).quaternion
    private var started = false

    /// Longest turn one `rotate` may make: at 180° the short way is undefined, and people
    /// do not turn a device by more in one sweep.
    static let largestTurn = 179.0
    /// Default movements of the hand, metres.
    static let defaultLift = 0.3
    static let defaultToward = 0.1
    /// A put-down's landing jolt, m/s².
    static let defaultImpact = 1.5

    init(source: String, settings: SensorSettings) {
        self.source = source
        self.settings = settings
    }

    private func error(_ line: Int, _ message: String) -> ScenarioError {
        ScenarioError(source: source, line: line, message: message)
    }

    mutating func add(_ step: ScenarioStep) throws(ScenarioError) {
        guard let kind = step.command.segmentKind else { return try start(step) }
        guard started else {
            throw error(step.line, "the first step must be 'start POSE', for example 'start portrait tilt 30' or 'start face-up'")
        }
        guard let duration = step.duration else {
            throw error(step.line, "'\(step.command)' needs a duration, like '\(step.command) 2s'")
        }
        var segment = Segment(
            kind: kind, line: step.line, start: self.duration, duration: duration,
            from: attitude, to: attitude, fromQuaternion: quaternion, axis: Vector3(0, 0, 1), angle: 0,
            lever: .zero, translation: .zero, label: nil, modifiers: try modifiers(of: step), shake: nil, impact: 0)
        var reader = try OptionReader(source: source, line: step.line, owner: step.command.rawValue, options: step.options)
        // A hold, or a move that slides or carries the device, keeps its pose: labelled
        // by it unless the step says otherwise.
        var automaticLabel = false
        switch kind {
        case .hold:
            automaticLabel = true
        case .rotate, .pickUp, .putDown:
            try turn(step, &segment, &reader)
        case .flip:
            let long = (step.flipAxis ?? "long") == "long"
            // Over the long edge the device turns about its y axis, over the short edge about x.
            segment.axis = long ? Vector3(0, 1, 0) : Vector3(1, 0, 0)
            segment.angle = .pi
            segment.lever = -(try reader.vector("pivot", default: settings.pivot, limit: 1))
            // R·Ry(π) = Rz(ψ+180)·Rx(−θ−90)·Rz(−φ) and R·Rx(π) = Rz(ψ+180)·Rx(−θ−90)·Rz(180−φ).
            segment.to = Attitude(
                roll: long ? -attitude.roll : 180 - attitude.roll, tilt: -attitude.tilt,
                heading: Attitude.normalizedHeading(attitude.heading + 180))
        case .shake:
            let along = try reader.word("along", allowed: ["x", "y", "z"], default: "x")
            segment.shake = Shaking.Options(
                frequency: try reader.number("freq", .hertz, default: 4, in: 0.5...15),
                peak: try reader.number("peak", .acceleration, default: 15, in: 0...60),
                twist: try reader.number("twist", .degrees, default: 10, in: 0...45),
                along: along == "x" ? Vector3(1, 0, 0) : along == "y" ? Vector3(0, 1, 0) : Vector3(0, 0, 1))
        case .move:
            let forward = try reader.number("forward", .metres, default: 0, in: -20...20)
            let left = try reader.number("left", .metres, default: 0, in: -20...20)
            let up = try reader.number("up", .metres, default: 0, in: -20...20)
            segment.translation = ActivityEffect.worldFromBody(Vector3(forward, left, up))
            guard segment.translates else {
                throw error(step.line, "'move' needs a displacement, like 'move 1s forward=0.4' (forward, left, up in metres)")
            }
            automaticLabel = true
        }
        try reader.finish()
        try continueActivities(of: step, in: &segment)
        try label(&segment, of: step, automatic: automaticLabel)
        segments.append(segment)
        self.duration += duration
        attitude = segment.to
        quaternion = segment.attitude(fraction: 1)
    }

    /// `start POSE`: where the device is before the first step.
    private mutating func start(_ step: ScenarioStep) throws(ScenarioError) {
        guard !started else { throw error(step.line, "'start' is given twice; use 'rotate' to change the pose") }
        guard step.expect == nil else {
            throw error(step.line, "'start' has no samples of its own, so no 'expect'; label the step after it")
        }
        guard step.options.isEmpty else { throw error(step.line, "'start' takes no options") }
        let target = try resolve(step.pose, line: step.line, defaultHeading: 0)
        attitude = target
        quaternion = target.quaternion
        started = true
    }

    /// A rotation, pick-up or put-down: the shortest turn to the step's pose, about its
    /// pivot, with the lift and the impact its options give.
    private func turn(_ step: ScenarioStep, _ segment: inout Segment, _ reader: inout OptionReader) throws(ScenarioError) {
        guard !step.pose.isEmpty else {
            throw error(
                step.line,
                "'\(step.command)' needs a pose to go to, like '\(step.command) landscape-left 0.6s' or '\(step.command) roll 40 2s'")
        }
        let target = try resolve(step.pose, line: step.line, defaultHeading: nil)
        var turn = quaternion.conjugate * target.quaternion
        if turn.w < 0 { turn = turn.negated }
        let (axis, angle) = turn.axisAngle
        guard angle.degrees <= Self.largestTurn else {
            throw error(
                step.line,
                "'\(step.command) \(step.pose.text)' turns the device by \(PoseSpec.format(angle.degrees.rounded()))°, and a half turn has no shortest way; go through a pose in between (two steps) or use 'flip'"
            )
        }
        segment.axis = axis
        segment.angle = angle
        segment.to = target
        segment.lever = -(try reader.vector("pivot", default: settings.pivot, limit: 1))
        if segment.kind != .rotate {
            let lift = try reader.number("lift", .metres, default: Self.defaultLift, in: 0...2)
            let toward = try reader.number("toward", .metres, default: Self.defaultToward, in: -2...2)
            let sign = segment.kind == .pickUp ? 1.0 : -1.0
            // Towards the user is backwards in the user's frame.
            segment.translation = ActivityEffect.worldFromBody(Vector3(-toward, 0, lift)) * sign
        }
        if segment.kind == .putDown {
            segment.impact = try reader.number("impact", .acceleration, default: Self.defaultImpact, in: 0...50)
        }
    }

    /// An activity that spans several steps is one walk, one ride: it keeps the options of
    /// its first step, and saying otherwise later would be ignored, so it is refused.
    private func continueActivities(of step: ScenarioStep, in segment: inout Segment) throws(ScenarioError) {
        guard let previous = segments.last else { return }
        for (i, use) in step.modifiers.enumerated() {
            guard let earlier = previous.modifiers.first(where: { $0.word == use.word }) else { continue }
            guard use.options.isEmpty || earlier == segment.modifiers[i] else {
                throw error(
                    step.line,
                    "'\(use.word)' goes on from the step before (line \(previous.line)), so it keeps the options given there; give its options on the first step of the run only"
                )
            }
            segment.modifiers[i] = earlier
        }
    }

    /// The step's label: as it says (checked against the pose it ends in), or the pose it
    /// holds when it keeps one.
    private func label(_ segment: inout Segment, of step: ScenarioStep, automatic: Bool) throws(ScenarioError) {
        switch step.expect {
        case .none:
            segment.label = automatic ? LabelRules.automatic(roll: attitude.roll, tilt: attitude.tilt).map(PoseLabel.pose) : nil
        case .some(.none):
            segment.label = nil
        case .some(.some(let label)):
            // `stable` claims no pose, only that the answer must hold: nothing to check.
            if case .pose(let pose) = label { try checkHonest(pose, segment, line: step.line) }
            segment.label = label
        }
    }

    /// The pose a step goes to; what the step leaves out comes from where the device is.
    private func resolve(_ pose: PoseSpec, line: Int, defaultHeading: Double?) throws(ScenarioError) -> Attitude {
        let roll = pose.roll ?? pose.name.flatMap(LabelRules.roll(of:)) ?? attitude.roll
        let tilt: Double
        if let given = pose.tilt {
            tilt = given
        } else {
            switch pose.name {
            case .faceUp?: tilt = 90
            case .faceDown?: tilt = -90
            case .some:
                // Turning between upright poses keeps the tilt; coming from flat, the
                // device is held at a comfortable reading angle.
                tilt = abs(attitude.tilt) <= LabelRules.uprightTilt ? attitude.tilt : 30
            case nil: tilt = attitude.tilt
            }
        }
        if let name = pose.name, !LabelRules.isPlausible(name, roll: roll, tilt: tilt) {
            throw error(line, "'\(pose.text)' is not \(name.rawValue): \(Self.describe(roll: roll, tilt: tilt)); \(Self.rule(for: name))")
        }
        // Keeping the heading keeps the screen facing the user: turning to landscape is a
        // quarter turn about the screen's normal, as people do it, not the shortest
        // rotation (a diagonal swing that would point the screen elsewhere).
        return Attitude(roll: roll, tilt: tilt, heading: pose.heading ?? defaultHeading ?? attitude.heading)
    }

    /// A label written in the scenario must be what a careful observer would say all
    /// through the step.
    private func checkHonest(_ label: DeviceOrientation, _ segment: Segment, line: Int) throws(ScenarioError) {
        let fractions = segment.turns ? (0...16).map { Double($0) / 16 } : [0]
        for s in fractions {
            let (roll, tilt) = Attitude.rollAndTilt(of: segment.attitude(fraction: s))
            if !LabelRules.isPlausible(label, roll: roll, tilt: tilt) {
                let whereText = segment.turns ? " \(Int((s * 100).rounded()))% of the way through the step," : ""
                throw error(
                    line,
                    "'expect \(label.rawValue)' is not honest here:\(whereText) \(Self.describe(roll: roll, tilt: tilt)); \(Self.rule(for: label)); use 'expect -' or a pose nearer to \(label.rawValue)"
                )
            }
        }
    }

    private static func describe(roll: Double, tilt: Double) -> String {
        "the device is at roll \(PoseSpec.format(roll.rounded()))°, tilt \(PoseSpec.format(tilt.rounded()))°"
    }

    private static func rule(for label: DeviceOrientation) -> String {
        switch label {
        case .faceUp: "face-up needs a tilt of at least \(PoseSpec.format(LabelRules.plausibleFlatTilt))°"
        case .faceDown: "face-down needs a tilt of at most -\(PoseSpec.format(LabelRules.plausibleFlatTilt))°"
        default:
            "\(label.rawValue) needs |tilt| ≤ \(PoseSpec.format(LabelRules.plausibleUprightTilt))° and a roll within \(PoseSpec.format(LabelRules.plausibleUprightRoll))° of \(PoseSpec.format(LabelRules.roll(of: label) ?? 0))°"
        }
    }

    private func modifiers(of step: ScenarioStep) throws(ScenarioError) -> [Modifier] {
        var result: [Modifier] = []
        for use in step.modifiers {
            var r = try OptionReader(source: source, line: step.line, owner: use.word, options: use.options)
            let modifier: Modifier
            switch use.word {
            case "walking":
                modifier = .walking(
                    Walking.Options(
                        stepFrequency: try r.number("step", .hertz, default: 1.9, in: 0.5...4),
                        vertical: try r.number("vertical", .acceleration, default: 2.2, in: 0...20),
                        forward: try r.number("forward", .acceleration, default: 1.3, in: 0...20),
                        lateral: try r.number("lateral", .acceleration, default: 0.7, in: 0...20),
                        heel: try r.number("heel", .acceleration, default: 2, in: 0...40),
                        sway: try r.number("sway", .degrees, default: 3, in: 0...30)))
            case "vehicle":
                modifier = .vehicle(
                    VehicleRide.Options(
                        vibration: try r.number("vibration", .acceleration, default: 0.5, in: 0...10),
                        bumps: try r.number("bumps", .perSecond, default: 0.15, in: 0...5),
                        bump: try r.number("bump", .acceleration, default: 7.5, in: 0...40)))
            case "taps":
                modifier = .taps(
                    ScreenTaps.Options(
                        rate: try r.number("rate", .perSecond, default: 1.5, in: 0...8),
                        peak: try r.number("peak", .acceleration, default: 20, in: 0...100)))
            case "tremor":
                modifier = .tremor(
                    HandTremor.Options(
                        amplitude: try r.number("amp", .degrees, default: 0.6, in: 0...5),
                        frequency: try r.number("freq", .hertz, default: 7, in: 2...15)))
            case "buzz":
                modifier = .buzz(
                    VibrationMotor.Options(
                        frequency: try r.number("freq", .hertz, default: 170, in: 20...400),
                        acceleration: try r.number("accel", .acceleration, default: 2.5, in: 0...20),
                        continuous: try r.word("pattern", allowed: ["bursts", "continuous"], default: "bursts") == "continuous"))
            case "dropout":
                modifier = .dropout
            default:
                guard let kind = Maneuver.Kind(rawValue: use.word) else {
                    throw error(step.line, "unknown modifier '\(use.word)'")
                }
                modifier = .maneuver(
                    Maneuver.Options(kind: kind, acceleration: try r.number("accel", .acceleration, default: 2, in: 0...10)))
            }
            try r.finish()
            result.append(modifier)
        }
        return result
    }
}
