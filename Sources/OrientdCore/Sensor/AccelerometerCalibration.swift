/// Turns raw IIO counts into m/s²: value = (raw + offset) · scale, per axis, the
/// kernel's definition for `_raw`, `_offset` and `_scale` (sysfs-bus-iio ABI).
public struct AccelerometerCalibration: Hashable, Sendable {
    /// m/s² per count, per axis.
    public var scale: Vector3
    /// Counts added before scaling, per axis.
    public var offset: Vector3
    /// Where the scale came from, for `orientd list`.
    public var scaleSource: String
    public var offsetSource: String

    public init(scale: Vector3, offset: Vector3 = .zero, scaleSource: String = "given", offsetSource: String = "none") {
        self.scale = scale
        self.offset = offset
        self.scaleSource = scaleSource
        self.offsetSource = offsetSource
    }

    @inlinable
    public func apply(x: Double, y: Double, z: Double) -> Vector3 {
        Vector3((x + offset.x) * scale.x, (y + offset.y) * scale.y, (z + offset.z) * scale.z)
    }

    /// Resolves scale and offset from a device's attributes, the sources in the order
    /// iio-sensor-proxy uses: `in_accel_{x,y,z}_scale` (all three), `in_accel_scale`,
    /// `scale`; offsets `in_accel_{x,y,z}_offset`, then `in_accel_offset`. Unlike
    /// iio-sensor-proxy it applies the offset on both read paths.
    ///
    /// An attribute that is not a positive finite number is reported and the next source
    /// tried. With no usable scale at all the scale is 1 and a warning says so: the
    /// readings are then taken as m/s², and if they are counts the classifier's magnitude
    /// check refuses them rather than rotating the screen on garbage.
    public static func resolve(
        device: String, attribute: (String) -> String?
    ) -> (calibration: AccelerometerCalibration, issues: [AttributeIssue]) {
        var issues: [AttributeIssue] = []
        func positive(_ name: String) -> Double? {
            switch AttributeValue.number(attribute(name)) {
            case .missing:
                return nil
            case .invalid(let text):
                issues.append(AttributeIssue(device: device, attribute: name, message: "'\(text)' is not a number; ignored"))
                return nil
            case .value(let v) where v <= 0:
                issues.append(AttributeIssue(device: device, attribute: name, message: "\(v) is not a positive scale; ignored"))
                return nil
            case .value(let v):
                return v
            }
        }
        func number(_ name: String) -> Double? {
            switch AttributeValue.number(attribute(name)) {
            case .missing: return nil
            case .invalid(let text):
                issues.append(AttributeIssue(device: device, attribute: name, message: "'\(text)' is not a number; ignored"))
                return nil
            case .value(let v): return v
            }
        }

        var scale: Vector3?
        var scaleSource = ""
        let perAxis = ["x", "y", "z"].map { positive("in_accel_\($0)_scale") }
        if let x = perAxis[0], let y = perAxis[1], let z = perAxis[2] {
            scale = Vector3(x, y, z)
            scaleSource = "in_accel_{x,y,z}_scale"
        } else if let shared = positive("in_accel_scale") {
            scale = Vector3(shared, shared, shared)
            scaleSource = "in_accel_scale"
        } else if let shared = positive("scale") {
            scale = Vector3(shared, shared, shared)
            scaleSource = "scale"
        }
        if scale == nil {
            issues.append(
                AttributeIssue(
                    device: device, attribute: "in_accel_scale",
                    message: "no usable scale (in_accel_{x,y,z}_scale, in_accel_scale, scale); taking readings as m/s²"))
        }

        var offset = Vector3.zero
        var offsetSource = "none"
        let perAxisOffset = ["x", "y", "z"].map { number("in_accel_\($0)_offset") }
        if perAxisOffset.contains(where: { $0 != nil }) {
            offset = Vector3(perAxisOffset[0] ?? 0, perAxisOffset[1] ?? 0, perAxisOffset[2] ?? 0)
            offsetSource = "in_accel_{x,y,z}_offset"
        } else if let shared = number("in_accel_offset") {
            offset = Vector3(shared, shared, shared)
            offsetSource = "in_accel_offset"
        }
        return (
            AccelerometerCalibration(
                scale: scale ?? Vector3(1, 1, 1), offset: offset, scaleSource: scale == nil ? "none (1)" : scaleSource,
                offsetSource: offsetSource),
            issues
        )
    }
}
