/// What the control channel asks of the service (a lock, a request, a reload) and what
/// the convertible's mode does: each decided here, its events and reply returned.
extension OrientationService {
    // MARK: From the control channel

    /// Carries out a request about the state. `requester` names the connection: its
    /// kind ("stdin", "socket") in lock events, the connection itself as the owner of a
    /// request.
    public mutating func execute(_ command: ControlCommand.ServiceRequest, by requester: Requester) -> Execution {
        let before = pipeline.policy
        var warning: String?
        /// `release`'s answer: whether the connection held a request.
        var released: Bool?
        /// `accept`'s answer: the orientation taken.
        var accepted: Rotation?
        switch command {
        case .orientation:
            // While nothing consumes the events the sensor is not read, and a one-shot
            // question does not wake it: the answer is the last pose read, marked so.
            return Execution(
                reply: ControlReply.success("orientation") {
                    ControlReply.addState(of: self, to: &$0)
                    $0.add("reading", isReading)
                })
        case .lock(let set, let words):
            let (event, outcome) = pipeline.lock(set)
            if outcome.overridesConfigured {
                warning =
                    "none of '\(words)' is supported (\(before.configured.typeNames(natural: pipeline.natural).joined(separator: ", "))); the lock wins"
            }
            finish(event, before: before, by: requester.kind)
        case .lockCurrent:
            finish(pipeline.lockCurrent(), before: before, by: requester.kind)
        case .unlock:
            finish(pipeline.unlock(), before: before, by: requester.kind)
        case .supported(let set, _):
            finish(pipeline.setSupported(set), before: before, by: requester.kind)
        case .request(let set, _):
            let event = pipeline.request(set, by: requester.connection)
            announceRequest(of: requester.connection, requested: set, event: event)
            let overridden = pipeline.policy.overridden
            if !overridden.isEmpty {
                warning =
                    "the request overrides the \(overridden.map { $0 == .lock ? "user's lock" : "supported set" }.joined(separator: " and "))"
            }
        case .release:
            released = before.requests.contains { $0.owner == requester.connection }
            releaseRequest(of: requester.connection)
        case .accept:
            guard let (event, withdrawn) = pipeline.acceptSuggestion() else {
                return Execution(
                    reply: ControlReply.failure(
                        command: "accept",
                        message:
                            "nothing to accept: a rotation is suggested only while the lock holds the screen and the device is turned to another orientation"
                    ))
            }
            finish(event, before: before, by: requester.kind)
            outbox.append(.suggestion(withdrawn))
            accepted = pipeline.policy.screen
        case .mode(let mode):
            report(mode, from: .command)
            if let decision = modes.decision, decision.source != .command {
                warning = "the \(decision.source.rawValue) decides (\(decision.mode.rawValue)); 'mode' applies when it does not answer"
            }
        }
        suggest()
        let reply = ControlReply.success(command.name) { json in
            ControlReply.addState(of: self, to: &json)
            if let released { json.add("released", released) }
            if let accepted { json.add("accepted", pipeline.natural.screenType(of: accepted).rawValue) }
            if let warning { json.add("warning", warning) }
        }
        return Execution(reply: reply, lockChanged: before.lock != pipeline.policy.lock)
    }

    /// Ends the request `owner` holds, if any: `release`, or its connection closed.
    public mutating func releaseRequest(of owner: String) {
        guard pipeline.policy.requests.contains(where: { $0.owner == owner }) else { return }
        announceRequest(of: owner, requested: nil, event: pipeline.release(by: owner))
        suggest()
    }

    private mutating func announceRequest(of owner: String, requested: RotationSet?, event: OrientationEvent?) {
        outbox.append(
            .request(
                RequestEvent(
                    time: pipeline.lastTime, owner: owner, requested: requested, policy: pipeline.policy, natural: pipeline.natural)))
        if let event { outbox.append(.orientation(event)) }
    }

    /// A source's answer about the mode (nil: none any more). A mode event follows when
    /// the mode believed changes, then an orientation event if the screen must move.
    mutating func report(_ mode: DeviceMode?, from source: ModeSource) {
        let before = modes.decision
        modes.report(mode, from: source)
        let after = modes.decision
        guard after != before else { return }
        outbox.append(.mode(ModeEvent(time: pipeline.lastTime, decision: after, hinge: hinge)))
        if let event = pipeline.setMode(after?.mode) { outbox.append(.orientation(event)) }
    }

    private mutating func finish(_ event: OrientationEvent?, before: ScreenPolicy, by source: String) {
        let policy = pipeline.policy
        if before.lock != policy.lock || before.configured != policy.configured {
            outbox.append(.lock(LockEvent(time: pipeline.lastTime, policy: policy, natural: pipeline.natural, by: source)))
        }
        if let event { outbox.append(.orientation(event)) }
    }

    /// A configuration reload: a new supported set, `rotate-in`, classifier parameters
    /// and suggestion timeout. The lock and the requests stay (they are the user's and the clients',
    /// not the file's); an event follows if the screen must move.
    public mutating func reconfigure(
        supported: RotationSet, rotateIn: RotateIn, parameters: ClassifierParameters, suggestionTimeout: Double
    ) {
        let before = pipeline.policy
        pipeline.setParameters(parameters)
        pipeline.setSuggestionTimeout(suggestionTimeout)
        defer { suggest() }
        if supported != before.configured {
            finish(pipeline.setSupported(supported), before: before, by: "configuration")
        }
        if rotateIn != before.rotateIn, let event = pipeline.setRotateIn(rotateIn) { outbox.append(.orientation(event)) }
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
