/// The answers on the control channel: one JSON line per request, with `"reply"` (the
/// command) and `"ok"`; a refused request has `"ok":false` and `"error"`, the message a
/// person can act on.
public enum ControlReply {
    public static func failure(_ rejection: ControlCommand.Rejection) -> [UInt8] {
        failure(command: rejection.command, message: rejection.message)
    }

    public static func failure(command: String, message: String) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("reply", command)
        json.add("ok", false)
        json.add("error", message)
        return json.line()
    }

    /// A successful reply; `fields` adds the command's own fields.
    public static func success(_ command: String, _ fields: (inout JSONLineWriter) -> Void = { _ in }) -> [UInt8] {
        var json = JSONLineWriter()
        json.add("reply", command)
        json.add("ok", true)
        fields(&json)
        return json.line()
    }

    /// The fields every state-bearing reply carries: the screen as Capacitor's
    /// `orientation()` gives it (`type`, `angle`), the pose, the lock, and the mode.
    public static func addState(of service: OrientationService, to json: inout JSONLineWriter) {
        let policy = service.pipeline.policy
        let natural = service.pipeline.natural
        json.add("type", natural.screenType(of: policy.screen).rawValue)
        json.add("angle", policy.screen.angle)
        json.add("device", policy.device.rawValue)
        json.add("locked", policy.isLocked)
        json.add("allowed", strings: policy.effective.typeNames(natural: natural))
        json.add("supported", strings: policy.configured.typeNames(natural: natural))
        json.add("mode", service.modes.decision?.mode.rawValue)
        if let hinge = service.hinge { json.add("hinge", hinge, decimals: 1) } else { json.addNull("hinge") }
    }

    /// What `status` adds about the layers (docs/layers.md, "Layers"): each one in force, the
    /// ones that gave way, and the one that put the screen where it is.
    public static func addLayers(of service: OrientationService, to json: inout JSONLineWriter) {
        let policy = service.pipeline.policy
        let natural = service.pipeline.natural
        if let lock = policy.lock { json.add("lock", strings: lock.typeNames(natural: natural)) } else { json.addNull("lock") }
        json.add("requests", objects: policy.requests.reversed()) { object, request in
            object.add("by", request.owner)
            object.add("requested", strings: request.set.typeNames(natural: natural))
        }
        json.add("mode-source", service.modes.decision?.source.rawValue)
        json.add("rotate-in", policy.rotateIn.rawValue)
        json.add("overridden", strings: policy.overridden.map(\.rawValue))
        json.add("decided", policy.decidedBy.rawValue)
        json.add("suggestion", service.pipeline.suggestion.offer.map { natural.screenType(of: $0.rotation).rawValue })
    }

    public static let helpLines = [
        "orientation: the current screen orientation",
        "status: pose, screen, lock, sensor and clients",
        "lock <orientations>: allow only these (e.g. lock landscape, lock portrait-primary, lock all-but-upside-down)",
        "lock current: lock the screen where it is",
        "unlock: back to the supported orientations",
        "supported <orientations>: set what unlock returns to",
        "request <orientations>: ask for these while this connection lasts (the newest request is in force)",
        "release: drop this connection's request",
        "accept: take the rotation suggested while locked (a suggestion event); the lock stays, at the new orientation",
        "mode tablet|laptop|auto: tell a convertible's mode; auto leaves it to the switch or hinge",
        "monitor: the current state, then every event",
        "quit: close this connection",
    ]
}
