/// The daemon's state and rules, without its I/O: the pipeline, what the sensor source
/// reported, and the control commands, producing the lines to broadcast in order.
///
/// The daemon holds one of these behind a lock shared by the sensor thread (samples) and
/// the control thread (commands), so lock, unlock and samples are applied in one order
/// and every consumer sees the same sequence of events.
public struct OrientationService: Sendable {
    public private(set) var pipeline: OrientationPipeline
    /// The device being read (sensor id or recording name), for `status`.
    public private(set) var source: String?
    private var units = UnitsCheck()
    /// What is waiting to be broadcast, oldest first.
    public private(set) var outbox: [Outgoing] = []

    public enum Outgoing: Sendable {
        /// An orientation event: broadcast, and run the hooks if the screen changed.
        case orientation(OrientationEvent)
        /// The lock changed: broadcast.
        case lock(LockEvent)
        /// The sensor came, went, fell silent or sends again: broadcast.
        case sensor(SensorStateEvent)
        /// For people, on standard error.
        case warning(String)
        case note(String)
        /// The source is open and producing (a sensor attached, a replay started): what
        /// to tell the service manager.
        case opened(String)
        /// The source is waiting (for a sensor to appear or return): the service manager's
        /// status.
        case waiting(String)
    }

    /// What a command did.
    public struct Execution: Sendable {
        public var reply: [UInt8]
        /// The lock changed: persist it.
        public var lockChanged = false
    }

    public init(pipeline: OrientationPipeline) {
        self.pipeline = pipeline
    }

    // MARK: From the source

    public mutating func process(_ sample: Sample) {
        if let message = units.check(sample.acceleration) {
            outbox.append(.warning("\(source ?? "the sensor"): \(message)"))
        }
        if let event = pipeline.process(sample) { outbox.append(.orientation(event)) }
    }

    /// A sensor (or the same one again) is being read; `event` says so to subscribers.
    public mutating func attach(source: String, mountMatrix: MountMatrix, event: SensorStateEvent?) {
        self.source = source
        units = UnitsCheck()
        pipeline.replaceSensor(mountMatrix: mountMatrix)
        if let event { outbox.append(.sensor(event)) }
    }

    /// The source's own event (a sensor lost) or message.
    public mutating func post(_ item: Outgoing) {
        outbox.append(item)
    }

    /// Takes everything waiting to be broadcast.
    public mutating func takeOutbox() -> [Outgoing] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    // MARK: From the control channel

    /// Carries out a request about the state; `source` ("stdin", "socket", ...) is named
    /// in the lock event.
    public mutating func execute(_ command: ControlCommand.ServiceRequest, by source: String) -> Execution {
        let before = pipeline.policy
        var warning: String?
        switch command {
        case .orientation:
            return Execution(reply: ControlReply.success("orientation") { ControlReply.addState(of: pipeline, to: &$0) })
        case .lock(let set, let words):
            let (event, outcome) = pipeline.lock(set)
            if outcome.overridesConfigured {
                warning =
                    "none of '\(words)' is supported (\(before.configured.typeNames(natural: pipeline.natural).joined(separator: ", "))); the lock wins"
            }
            finish(event, before: before, by: source)
        case .lockCurrent:
            finish(pipeline.lockCurrent(), before: before, by: source)
        case .unlock:
            finish(pipeline.unlock(), before: before, by: source)
        case .supported(let set, _):
            finish(pipeline.setSupported(set), before: before, by: source)
        }
        let reply = ControlReply.success(command.name) { json in
            ControlReply.addState(of: pipeline, to: &json)
            if let warning { json.add("warning", warning) }
        }
        return Execution(reply: reply, lockChanged: before.lock != pipeline.policy.lock)
    }

    private mutating func finish(_ event: OrientationEvent?, before: ScreenPolicy, by source: String) {
        let policy = pipeline.policy
        if before.lock != policy.lock || before.configured != policy.configured {
            outbox.append(.lock(LockEvent(time: pipeline.lastTime, policy: policy, natural: pipeline.natural, by: source)))
        }
        if let event { outbox.append(.orientation(event)) }
    }

    /// A configuration reload: a new supported set and classifier parameters. The lock
    /// stays (it is the user's, not the file's); an event follows if the screen must move.
    public mutating func reconfigure(supported: RotationSet, parameters: ClassifierParameters) {
        let before = pipeline.policy
        pipeline.setParameters(parameters)
        if supported != before.configured {
            finish(pipeline.setSupported(supported), before: before, by: "configuration")
        }
    }

    /// Applies a lock at start-up (the command line or the saved state), quietly: the
    /// first orientation event carries it.
    public mutating func restore(lock: RotationSet?) -> ScreenPolicy.LockOutcome? {
        guard let lock else {
            _ = pipeline.unlock()
            return nil
        }
        return pipeline.lock(lock).outcome
    }
}
