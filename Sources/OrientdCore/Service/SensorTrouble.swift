/// What is wrong with the display sensor now, as its events and readings told (`status`,
/// `orientd doctor`): nothing, a silent buffer, waited on (on a sensor that may answer
/// nothing at all) or stood in for by polled reads, or values that do not update.
public enum SensorTrouble: Equatable, Sendable {
    /// Its buffer has sent nothing since `since` (seconds on the events' clock).
    case stalled(device: String, since: Double)
    /// Its buffer has sent nothing since `since`, and the sensor answers no request (a
    /// write of its rate waits on the driver's time-outs).
    case hung(device: String, since: Double)
    /// Its buffer has sent nothing since `since`; its raw values are read meanwhile.
    case polledInstead(device: String, since: Double)
    /// Every reading since `since` has been the same, to the last bit (`FrozenReadings`).
    case frozen(device: String, since: Double)

    /// The trouble after `event`, given the trouble before it.
    public static func after(_ event: SensorStateEvent, was trouble: SensorTrouble?) -> SensorTrouble? {
        switch event.state {
        case .stalled(let seconds):
            return .stalled(device: event.device, since: event.time - seconds)
        case .hung(let seconds):
            return .hung(device: event.device, since: event.time - seconds)
        case .reading(let read, let reason) where reason != nil && read == "polled":
            let since = trouble?.silentSince(event.device) ?? event.time
            return .polledInstead(device: event.device, since: since)
        case .reading(_, let reason) where reason != nil:
            return trouble
        case .attached, .resumed, .lost, .idle, .reading:
            return nil
        }
    }

    /// When the buffer of `device` went silent, if this is its silence.
    func silentSince(_ device: String) -> Double? {
        switch self {
        case .stalled(device, let since), .hung(device, let since), .polledInstead(device, let since): since
        case .stalled, .hung, .polledInstead, .frozen: nil
        }
    }

    /// The `sensor-trouble` object of `status`: its state, device and how long the buffer
    /// has been silent at `now`.
    public func add(to json: inout JSONLineWriter, now: Double) {
        switch self {
        case .stalled(let device, let since): add("stalled", device, since)
        case .hung(let device, let since): add("hung", device, since)
        case .polledInstead(let device, let since): add("polled", device, since)
        case .frozen(let device, let since): add("frozen", device, since)
        }
        func add(_ state: String, _ device: String, _ since: Double) {
            json.add("state", state)
            json.add("device", device)
            json.add("silent", now - since, decimals: 1)
        }
    }
}
