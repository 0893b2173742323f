import OrientdCore

/// A device's sampling frequency attribute (`sampling_frequency`, or the channel's
/// `in_accel_sampling_frequency`) and what it offers: set once when the sensor is
/// opened, and again each time the adaptive rate changes pace.
struct SamplingFrequencySetting: Sendable {
    /// The sysfs name.
    let attribute: String
    /// `..._available`, as the device lists it; nil when it takes any rate (a HID
    /// sensor hub's accelerometer).
    let available: String?

    /// Sets the rate the device offers nearest `wanted` (`SamplingFrequency.choose`) and
    /// returns the rate in force after, or why it could not. A driver without a list
    /// rounds the rate to its own steps: the rate in force is what it reads back.
    func set(_ wanted: Double, on device: IIODevice, read: (String) -> String?) -> Result<Double, AttributeIssue> {
        guard let chosen = SamplingFrequency.choose(available: available, wanted: wanted, settable: true) else {
            return .failure(AttributeIssue(device: device.id, attribute: attribute, message: "offers no usable rate: '\(available ?? "")'"))
        }
        do {
            try device.writeAttribute(attribute, Self.format(chosen))
        } catch {
            return .failure(
                AttributeIssue(device: device.id, attribute: attribute, message: "cannot set \(Self.format(chosen)) Hz: \(error.message)"))
        }
        return .success(inForce(written: chosen, readBack: available == nil ? read(attribute) : nil))
    }

    /// The rate in force after `written` was written: a driver without a list rounds it to
    /// its own steps, so what it reads back, when that is a number.
    func inForce(written: Double, readBack: String?) -> Double {
        guard available == nil, case .value(let back) = AttributeValue.number(readBack) else { return written }
        return back
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
