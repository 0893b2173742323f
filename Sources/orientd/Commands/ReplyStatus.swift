import FoundationEssentials

/// What `ctl` and `monitor` decide on in the daemon's answer: whether it is a reply, and
/// whether it says ok. Decoded as JSON, not searched for, so an event, or a reply whose
/// message quotes `"ok":true`, is never taken for a success. (FoundationEssentials is
/// loaded already, by swift-argument-parser: no cost in memory.)
struct ReplyStatus: Decodable {
    var reply: String
    var ok: Bool

    /// Nil for anything that is not a reply object with `reply` and `ok`.
    init?(line: [UInt8]) {
        guard let decoded = try? JSONDecoder().decode(ReplyStatus.self, from: Data(line)) else { return nil }
        self = decoded
    }
}
