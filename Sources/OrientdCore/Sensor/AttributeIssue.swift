/// Something odd about a sensor attribute, named by device and attribute:
/// `iio:device0: in_accel_scale: 'abc' is not a number; using 1`.
public struct AttributeIssue: Error, Hashable, Sendable, CustomStringConvertible {
    public var device: String
    public var attribute: String
    public var message: String

    public init(device: String, attribute: String, message: String) {
        self.device = device
        self.attribute = attribute
        self.message = message
    }

    public var description: String { "\(device): \(attribute): \(message)" }
}

/// Reads a sysfs attribute's text as a number.
public enum AttributeValue {
    public enum Number: Hashable, Sendable {
        case value(Double)
        case missing
        case invalid(String)
    }

    /// The number in an attribute's text, ignoring the kernel's newline and a NUL.
    public static func number(_ text: String?) -> Number {
        guard let text else { return .missing }
        guard let value = DecimalParser.value(of: text) else { return .invalid(text.trimmingSysfs) }
        return .value(value)
    }
}
