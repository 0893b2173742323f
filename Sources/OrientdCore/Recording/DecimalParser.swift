/// Parses the decimal numbers of recording lines straight from bytes.
///
/// Written by hand because replay must parse ~60 MB/s (1 million lines in well under
/// 0.5 s) and `Double(String)` needs a String per field. The fast path is Clinger's:
/// a mantissa of at most 2⁵³ scaled by a power of ten of at most 10²² is exactly
/// representable on both sides, so one IEEE multiplication or division rounds correctly.
/// Anything else (exponents, long mantissas, `nan`, `inf`) goes to the standard library.
enum DecimalParser {
    enum Result: Equatable {
        case value(Double)
        case notFinite
        case notANumber
    }

    private static let powersOfTen: [Double] = {
        var p: [Double] = [1]
        for _ in 1...22 { p.append(p.last! * 10) }
        return p
    }()

    /// Parses `bytes[start..<end]`, ignoring spaces and tabs around the number.
    @inlinable
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        var i = start
        var e = end
        while i < e, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        while e > i, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
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

    private static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        guard end - start <= 64 else { return .notANumber }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        // Double(String) also accepts hexadecimal floats; the format says decimal.
        if text.contains(where: { $0 == "x" || $0 == "X" }) { return .notANumber }
        guard let value = Double(text) else { return .notANumber }
        return value.isFinite ? .value(value) : .notFinite
    }
}
