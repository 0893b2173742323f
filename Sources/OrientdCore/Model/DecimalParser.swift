/// Parses decimal numbers straight from bytes: the fields of recording lines, sysfs
/// attributes, and the polled path's raw values (for every axis of every sample).
///
/// Written by hand because replay must parse ~60 MB/s (1 million lines in well under
/// 0.5 s) and `Double(String)` needs a String per field (on the polled path, going
/// through String and Character was the largest part of its CPU time, perf). The fast
/// path is Clinger's:
/// a mantissa of at most 2⁵³ scaled by a power of ten of at most 10²² is exactly
/// representable on both sides, so one IEEE multiplication or division rounds correctly.
/// Anything else (exponents, long mantissas, `nan`, `inf`) goes to the standard library.
public enum DecimalParser {
    public enum Result: Equatable, Sendable {
        case value(Double)
        case notFinite
        case notANumber
    }

    @usableFromInline
    static let powersOfTen: [Double] = {
        var p: [Double] = [1]
        for _ in 1...22 { p.append(p.last! * 10) }
        return p
    }()

    /// The number of a whole text, e.g. a sysfs attribute: the kernel's newline and NUL
    /// at its end are not part of it. (Only there: inside a recording's field a NUL is an
    /// error, as the fuzzer's oracle, Double(String), says.)
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result {
        let bytes = bytes.bindMemory(to: UInt8.self)
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0 { end -= 1 }
        if let integer = integer(bytes, end) { return .value(integer) }
        return parse(bytes, 0, end)
    }

    /// `bytes[..<end]` as the kernel writes a raw reading, `-?digits` of at most 15 digits,
    /// in one pass; nil for anything else. Three a polled sample: the general parse
    /// below, with its blanks, sign, fraction and table of powers, took 100 instructions
    /// each (callgrind), this 64 with the trimming. The same value, to the bit (-0 too).
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Double? {
        let negative = end > 0 && bytes[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        guard i < end, end - i <= 15 else { return nil }
        var magnitude: Int64 = 0
        while i < end {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ Int64(digit)
            i += 1
        }
        let value = Double(magnitude)
        return negative ? -value : value
    }

    /// The finite number a text holds (blanks around it allowed), nil otherwise: for
    /// the texts that are not hot (attributes, headers, lists).
    public static func value(of text: some StringProtocol) -> Double? {
        guard case .value(let value) = Array(text.utf8).withUnsafeBytes({ parse($0) }) else { return nil }
        return value
    }

    /// Parses `bytes[start..<end]`, ignoring spaces and tabs around the number.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        var i = start
        var e = end
        while i < e, isBlank(bytes[i]) { i += 1 }
        while e > i, isBlank(bytes[e - 1]) { e -= 1 }
        guard i < e else { return .notANumber }
        let first = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") {
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < e, bytes[i] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            if mantissa != 0 { digits += 1 }
            sawDigit = true
            i += 1
        }
        if i < e, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < e, bytes[i] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
                if mantissa != 0 { digits += 1 }
                exponent -= 1
                sawDigit = true
                i += 1
            }
        }
        if i == e, sawDigit, digits <= 15, exponent >= -22 {
            // 15 significant digits keep the mantissa below 2^53.
            var value = Double(mantissa)
            value = exponent < 0 ? value / powersOfTen[-exponent] : value
            return .value(negative ? -value : value)
        }
        return slowPath(bytes, first, e)
    }

    @inlinable
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    @usableFromInline
    static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        guard end - start <= 64 else { return .notANumber }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        // Double(String) also accepts hexadecimal floats; the format says decimal.
        if text.contains(where: { $0 == "x" || $0 == "X" }) { return .notANumber }
        guard let value = Double(text) else { return .notANumber }
        return value.isFinite ? .value(value) : .notFinite
    }
}
