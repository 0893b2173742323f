/// What is wrong with the display sensor now, as its events told (`status`, `orientd
/// doctor`): nothing, or a silent buffer, waited on or stood in for by polled reads.
public enum SensorTrouble: Equatable, Sendable {
    /// Its buffer has sent nothing since `since` (seconds on the events' clock).
    case stalled(device: String, since: Double)
    /// Its buffer has sent nothing since `since`; its raw values are read meanwhile.
    case polledInstead(device: String, since: Double)

    /// The trouble after `event`, given the trouble before it.
    public static func after(_ event: SensorStateEvent, was trouble: SensorTrouble?) -> SensorTrouble? {
        switch event.state {
        case .stalled(let seconds):
            return .stalled(device: event.device, since: event.time - seconds)
        case .reading(let read, let reason) where reason != nil && read == "polled":
            let since = if case .stalled(event.device, let since) = trouble { since } else { event.time }
            return .polledInstead(device: event.device, since: since)
        case .reading(_, let reason) where reason != nil:
            return trouble
        case .attached, .resumed, .lost, .idle, .reading:
            return nil
        }
    }

    /// The `sensor-trouble` object of `status`: its state, device and how long the buffer
    /// has been silent at `now`.
    public func add(to json: inout JSONLineWriter, now: Double) {
        switch self {
        case .stalled(let device, let since):
            json.add("state", "stalled")
            json.add("device", device)
            json.add("silent", now - since, decimals: 1)
        case .polledInstead(let device, let since):
            json.add("state", "polled")
            json.add("device", device)
            json.add("silent", now - since, decimals: 1)
        }
    }
}
