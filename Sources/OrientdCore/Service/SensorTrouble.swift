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
        case .reading(.polled, because: .some):
            let since = trouble?.silentSince(event.device) ?? event.time
            return .polledInstead(device: event.device, since: since)
        case .reading(.buffered, because: .some):
            return trouble
        case .attached, .resumed, .lost, .idle, .reading(_, because: nil):
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

    /// Which trouble it is, by the name `status` gives it (`sensor-trouble`'s `state`).
    public enum Kind: String, Sendable {
        case stalled, hung, polled, frozen
    }

    public var kind: Kind {
        switch self {
        case .stalled: .stalled
        case .hung: .hung
        case .polledInstead: .polled
        case .frozen: .frozen
        }
    }

    /// The `sensor-trouble` object of `status`: its state, device and how long the buffer
    /// has been silent at `now`.
    public func add(to json: inout JSONLineWriter, now: Double) {
        let (device, since) =
            switch self {
            case .stalled(let device, let since), .hung(let device, let since), .polledInstead(let device, let since),
                .frozen(let device, let since):
                (device, since)
            }
        json.add("state", kind.rawValue)
        json.add("device", device)
        json.add("silent", now - since, decimals: 1)
    }
}
