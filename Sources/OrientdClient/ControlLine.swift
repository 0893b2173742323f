import FoundationEssentials
import OrientdCore

/// One line from the daemon: a reply to a request (`"reply"`, `"ok"`, and `"error"`
/// when it refused) or an event (`"event"`). Decoded as JSON, never searched for, so an
/// event, or a reply whose message quotes `"ok":true`, is never taken for a success.
/// (FoundationEssentials is in the process already, for swift-argument-parser's sake in
/// orientd itself: no cost in memory.)
public struct ControlLine: Sendable, Hashable {
    /// The line as the daemon sent it, without its newline.
    public var text: String
    /// The command a reply answers; nil for an event.
    public var reply: String?
    public var ok: Bool
    /// Why the daemon refused, in its words.
    public var error: String?
    /// The event's name (`orientation`, `lock`, `sensor` …); nil for a reply.
    public var event: String?
    /// The screen the line reports, when it reports one: an `orientation` reply or
    /// event, or any reply that carries the state (`lock`, `unlock`, `request` …).
    public var orientation: ScreenOrientationResult?

    private struct Fields: Decodable {
        var reply: String?
        var ok: Bool?
        var error: String?
        var event: String?
        /// Replies say `type`, orientation events `screen`.
        var type: String?
        var screen: String?
        var angle: Int?
    }

    /// Nil for anything that is not a JSON object with `reply` and `ok`, or `event`.
    public init?(line: [UInt8]) {
        let body = line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...]
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(body)) else { return nil }
        if let reply = fields.reply {
            guard let ok = fields.ok else { return nil }
            self.reply = reply
            self.ok = ok
        } else {
            guard fields.event != nil else { return nil }
            ok = true
        }
        text = String(decoding: body, as: UTF8.self)
        error = fields.error
        event = fields.event
        let typeName = fields.reply != nil ? fields.type : (fields.event == "orientation" ? fields.screen : nil)
        if let typeName, let type = ScreenOrientationType(rawValue: typeName), let angle = fields.angle {
            orientation = ScreenOrientationResult(type: type, angle: angle)
        }
    }

    /// A reply that says the daemon did what was asked.
    public var isSuccess: Bool { reply != nil && ok }
}
