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
    /// `orientation()` gives it (`type`, `angle`), the pose and the lock.
    public static func addState(of pipeline: OrientationPipeline, to json: inout JSONLineWriter) {
        let policy = pipeline.policy
        json.add("type", pipeline.natural.screenType(of: policy.screen).rawValue)
        json.add("angle", policy.screen.angle)
        json.add("device", policy.device.rawValue)
        json.add("locked", policy.isLocked)
        json.add("allowed", strings: policy.effective.typeNames(natural: pipeline.natural))
        json.add("supported", strings: policy.configured.typeNames(natural: pipeline.natural))
    }

    public static let helpLines = [
        "orientation: the current screen orientation",
        "status: pose, screen, lock, sensor and clients",
        "lock <orientations>: allow only these (e.g. lock landscape, lock portrait-primary, lock all-but-upside-down)",
        "lock current: lock the screen where it is",
        "unlock: back to the supported orientations",
        "supported <orientations>: set what unlock returns to",
        "monitor: the current state, then every event",
        "quit: close this connection",
    ]
}
