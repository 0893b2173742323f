import OrientdCore

/// The change sensitivity a buffered sensor is given (`AdaptiveRate`'s watch): the
/// adaptive rate's while it watches, the sensor's own otherwise, and its own again when
/// reading ends. Lives on the sensor thread, with the device.
struct SensitivitySetting {
    let device: IIODevice
    let offered: ChangeSensitivity
    /// m/s².
    let wanted: Double
    /// Whether the sensor has `wanted` now.
    private(set) var isSet = false

    init(device: IIODevice, offered: ChangeSensitivity, wanted: Double) {
        self.device = device
        self.offered = offered
        self.wanted = wanted
    }

    /// Gives the sensor the sensitivity of `pace`; the issue when the driver refuses, or
    /// takes a value that is no sensitivity (a hub whose unit exponent rounds it to 0):
    /// the reader then rests at the rest rate.
    mutating func follow(_ pace: AdaptiveRate.Pace) -> AttributeIssue? {
        let watching = pace == .watch
        guard watching != isSet else { return nil }
        let text = watching ? offered.text(for: wanted) : offered.original
        do {
            try device.writeAttribute(ChangeSensitivity.attribute, text)
        } catch {
            return AttributeIssue(
                device: device.id, attribute: ChangeSensitivity.attribute, message: "cannot set \(text): \(error.message)")
        }
        isSet = watching
        guard watching else { return nil }
        let back = try? device.attribute(ChangeSensitivity.attribute)
        if let taken = offered.metersPerSecondSquared(readBack: back), taken <= 0 || taken > 2 * wanted {
            _ = restore()
            return AttributeIssue(
                device: device.id, attribute: ChangeSensitivity.attribute,
                message:
                    "wrote \(text), reads back \(back ?? "nothing"): the sensor cannot take \(JSONLineWriter.number(wanted, decimals: 3)) m/s²"
            )
        }
        return nil
    }

    /// Its own sensitivity back, when reading ends or the watch is given up.
    @discardableResult
    mutating func restore() -> AttributeIssue? {
        follow(.full)
    }
}
