/// Builds one JSON object on one line, key by key, into bytes.
///
/// Hand-written instead of `JSONEncoder` because the daemon's path avoids Foundation
/// (its resident size is a target), key order must be stable for people reading the
/// stream, and numbers must print the same on every machine.
public struct JSONLineWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var empty = true

    public init() {
        bytes.reserveCapacity(256)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        Self.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func add(_ key: String, _ value: String) {
        self.key(key)
        Self.appendString(value, to: &bytes)
    }

    public mutating func add(_ key: String, _ value: String?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    public mutating func add(_ key: String, _ value: Int) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func add(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A number with at most `decimals` places, trailing zeros dropped (`3.52`, `4`).
    /// Non-finite values, which JSON cannot carry, become null.
    public mutating func add(_ key: String, _ value: Double, decimals: Int = 6) {
        self.key(key)
        Self.appendNumber(value, decimals: decimals, to: &bytes)
    }

    /// `value` as JSON prints it here: at most `decimals` places, trailing zeros dropped
    /// (`3.52`, `4`), no `-0`; non-finite values, which JSON cannot carry, as null.
    public static func appendNumber(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        let start = bytes.count
        RecordingWriter.appendFixed(value, decimals: decimals, to: &bytes)
        if bytes[start...].contains(UInt8(ascii: ".")) {
            while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        }
        if bytes.count - start == 2, bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: "0") {
            bytes.removeSubrange(start..<(start + 1))  // no "-0"
        }
    }

    /// `value` as text, the way `appendNumber` writes it.
    public static func number(_ value: Double, decimals: Int = 6) -> String {
        var bytes: [UInt8] = []
        appendNumber(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public mutating func add(_ key: String, strings: [String]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (i, s) in strings.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(s, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func add(_ key: String, numbers: [Double], decimals: Int = 6) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (i, n) in numbers.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendNumber(n, decimals: decimals, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A list of objects, each written by `fill` from one element.
    public mutating func add<Element>(_ key: String, objects: [Element], _ fill: (inout JSONLineWriter, Element) -> Void) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in objects.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            var object = JSONLineWriter()
            fill(&object, element)
            bytes.append(contentsOf: object.bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// One object, written by `fill`.
    public mutating func add(_ key: String, object fill: (inout JSONLineWriter) -> Void) {
        self.key(key)
        var object = JSONLineWriter()
        fill(&object)
        bytes.append(contentsOf: object.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func addNull(_ key: String) {
        self.key(key)
        bytes.append(contentsOf: "null".utf8)
    }

    /// The object, closed and followed by a newline.
    public func line() -> [UInt8] {
        var out = bytes
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Appends a JSON string literal; control characters and invalid UTF-8 are escaped
    /// or replaced so the line is always valid JSON. The runs between escapes are copied
    /// whole: appended a byte at a time, an event's nine strings cost 11,000 instructions.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var start = 0
            for (i, unit) in bytes.enumerated() where needsEscape(unit) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscape(unit, to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A control character, a quote or a backslash.
    private static func needsEscape(_ unit: UInt8) -> Bool {
        unit < 0x20 || unit == 0x7f || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\")
    }

    private static func appendEscape(_ unit: UInt8, to out: inout [UInt8]) {
        switch unit {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hex[Int(unit >> 4)])
            out.append(hex[Int(unit & 0xf)])
        }
    }
}
