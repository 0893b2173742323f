#if canImport(Glibc)
    import Glibc
#endif

/// A sensor's change sensitivity: `in_accel_hysteresis`, which Linux's hid-sensor-accel-3d
/// makes of a HID sensor hub's Change Sensitivity (absolute) property. Given one, the
/// hub sends a report only when an axis has moved by more than it since the last report
/// sent, and wakes the CPU for nothing else (`AdaptiveRate`'s watch).
///
/// The value is in the hub's own unit, not the reading's counts: the property's number
/// times ten to its unit exponent (hid-sensor-attributes.c), in the unit of the data,
/// which the driver accepts as g or m/s² only. `in_accel_scale` tells which: the driver
/// makes it that unit in m/s² (9.80665 for g) times a power of ten.
public struct ChangeSensitivity: Hashable, Sendable {
    /// The sysfs name.
    public static let attribute = "in_accel_hysteresis"

    /// m/s² per unit of the attribute: 9.80665 when the hub counts in g, 1 in m/s².
    public var metersPerSecondSquaredPerUnit: Double
    /// The attribute as it was when the sensor was opened: written back when reading ends.
    public var original: String

    public init(metersPerSecondSquaredPerUnit: Double, original: String) {
        self.metersPerSecondSquaredPerUnit = metersPerSecondSquaredPerUnit
        self.original = original
    }

    static let standardGravity = 9.80665

    /// The sensitivity a device offers, from its attribute's text and its scale (m/s² a
    /// count): nil when it offers none (no file, or one that reads no number: the driver
    /// makes the file for every HID accelerometer and fails the read when the hub has no
    /// such property), an issue when the scale names no unit the driver knows.
    public static func resolve(device: String, attributeText: String?, scale: Double) -> Result<ChangeSensitivity, AttributeIssue>? {
        guard case .value(let value) = AttributeValue.number(attributeText), value >= 0, let original = attributeText?.trimmingSysfs
        else { return nil }
        guard let unit = unit(ofScale: scale) else {
            return .failure(
                AttributeIssue(
                    device: device, attribute: attribute,
                    message: "offered, but in_accel_scale \(scale) is neither g nor m/s² times a power of ten; not used"))
        }
        return .success(ChangeSensitivity(metersPerSecondSquaredPerUnit: unit, original: original))
    }

    /// 9.80665 or 1, when `scale` is that times a power of ten (within 0.1 %: the driver
    /// prints nine decimals); nil otherwise. The two differ by 2 % after the power.
    static func unit(ofScale scale: Double) -> Double? {
        guard scale.isFinite, scale > 0 else { return nil }
        for unit in [standardGravity, 1] {
            let ratio = scale / unit
            let power = pow(10, log10(ratio).rounded())
            if abs(ratio / power - 1) < 0.001 { return unit }
        }
        return nil
    }

    /// The attribute's text for `sensitivity` m/s².
    public func text(for sensitivity: Double) -> String {
        let value = sensitivity / metersPerSecondSquaredPerUnit
        return JSONLineWriter.number(value, decimals: 6)
    }

    /// The sensitivity in m/s² that the attribute's text reads back as; nil for no number.
    public func metersPerSecondSquared(readBack text: String?) -> Double? {
        guard case .value(let value) = AttributeValue.number(text) else { return nil }
        return value * metersPerSecondSquaredPerUnit
    }
}
