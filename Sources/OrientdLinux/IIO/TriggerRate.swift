import OrientdCore

/// The rate of a trigger with a rate of its own (an hrtimer trigger an administrator gave
/// a chip without an interrupt line): the chip scans at the trigger's rate whatever its
/// own, so at rest the trigger is slowed as well, and set back to the administrator's
/// rate when the device moves or reading ends (`TriggerPace`). A data-ready trigger has
/// no rate: it follows the chip's own.
struct TriggerRate {
    static let attribute = "sampling_frequency"

    let trigger: IIODevice
    /// The sensor it paces, for messages.
    let device: String
    /// Its rate when the sensor was opened: the administrator's choice.
    let initial: Double
    /// Its rate now.
    private(set) var current: Double
    /// Writing the rate failed once: not tried again while this sensor is read.
    private var refused = false

    /// The device's trigger, when one is set and has a rate; nil otherwise.
    init?(of device: IIODevice) {
        guard let trigger = device.trigger,
            case .value(let rate) = AttributeValue.number(try? trigger.attribute(Self.attribute)), rate > 0
        else { return nil }
        self.trigger = trigger
        self.device = device.id
        initial = rate
        current = rate
    }

    /// Sets the rate `pace` asks for (`TriggerPace`); a warning the first time the
    /// trigger will not take it, nil otherwise.
    mutating func follow(_ pace: AdaptiveRate.Pace, rest: Double) -> String? {
        let wanted = TriggerPace.rate(for: pace, rest: rest, administrator: initial)
        guard !refused, wanted != current else { return nil }
        let name = trigger.name.map { "\($0) (\(trigger.id))" } ?? trigger.id
        do {
            try trigger.writeAttribute(Self.attribute, SamplingFrequencySetting.format(wanted))
        } catch {
            refused = true
            return "\(device): its trigger \(name) runs at \(SamplingFrequencySetting.format(current)) Hz and its "
                + "\(Self.attribute) cannot be set to \(SamplingFrequencySetting.format(wanted)) Hz (\(error.message)): "
                + "the kernel keeps reading the chip at that rate while the device is still"
        }
        // hrtimer keeps the period in nanoseconds and reads it back as a rate: believe that.
        if case .value(let back) = AttributeValue.number(try? trigger.attribute(Self.attribute)), back > 0 {
            current = back
        } else {
            current = wanted
        }
        return nil
    }
}
