/// Writes sample lines of the recording format into a byte buffer.
///
/// Hand-written rather than `String(format:)` or `description` because `orientd record`
/// and the simulator write millions of lines: fixed-point integer formatting is exact,
/// locale-free and an order of magnitude faster.
public struct RecordingWriter: Sendable {
    /// Decimal places of `time` (microseconds).
    public var timeDecimals: Int = 6
    /// Decimal places of x, y, z (0.1 mm/s², well below any sensor's resolution).
    public var valueDecimals: Int = 4

    public init(timeDecimals: Int = 6, valueDecimals: Int = 4) {
        self.timeDecimals = timeDecimals
        self.valueDecimals = valueDecimals
    }

    /// Appends `time,x,y,z[,expect]\n`. `expect` nil writes no column; pass
    /// `.some(nil)` to write `-` (don't care) in a labelled recording.
    public func append(_ sample: Sample, expect: PoseLabel?? = nil, to out: inout [UInt8]) {
        Self.appendFixed(sample.time, decimals: timeDecimals, to: &out)
        out.append(UInt8(ascii: ","))
        Self.appendFixed(sample.acceleration.x, decimals: valueDecimals, to: &out)
        out.append(UInt8(ascii: ","))
        Self.appendFixed(sample.acceleration.y, decimals: valueDecimals, to: &out)
        out.append(UInt8(ascii: ","))
        Self.appendFixed(sample.acceleration.z, decimals: valueDecimals, to: &out)
        if let expect {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: (expect?.word ?? "-").utf8)
        }
        out.append(UInt8(ascii: "\n"))
    }

    private static let powersOfTen: [Double] = (0...9).map { p in (0..<p).reduce(1.0) { r, _ in r * 10 } }

    /// Appends `value` rounded to `decimals` places, as `-12.3400`. Values whose scaled
    /// magnitude does not fit in 63 bits (or that are not finite) fall back to Swift's
    /// shortest representation, which the reader parses too.
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        let scale = powersOfTen[min(max(decimals, 0), 9)]
        let scaled = (value * scale).rounded()
        guard value.isFinite, abs(scaled) < 9.0e18 else {
            out.append(contentsOf: value.description.utf8)
            return
        }
        var units = Int64(scaled)
        if units < 0 {
            out.append(UInt8(ascii: "-"))
            units = -units
        }
        let divisor = Int64(scale)
        appendDigits(units / divisor, minimumDigits: 1, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(units % divisor, minimumDigits: decimals, to: &out)
        }
    }

    static func appendDigits(_ value: Int64, minimumDigits: Int, to out: inout [UInt8]) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            } while v > 0 || count < minimumDigits
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }
}
