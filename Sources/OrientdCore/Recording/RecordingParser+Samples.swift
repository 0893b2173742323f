/// The sample lines, the hot path of a replay: the plain form read without a `String`,
/// anything else read carefully, each problem named with its line.
extension RecordingParser {
    // MARK: samples (the hot path)

    private static let fieldNames = ["time", "x", "y", "z", "expect"]

    /// A plain line in order takes the one-pass path; any other line, or one that goes
    /// back in time, `anySampleLine`, which reads it again and says what is wrong.
    /// Inlined into `consume`, which then builds its item in place: returned through a
    /// copy, the item was read back before its stores had landed, a stall (perf).
    @inline(__always)
    mutating func sampleLine(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Item {
        if let (sample, next) = Self.plainSample(bytes, end, powersOfTen), sample.time >= lastTime {
            if fieldCount == 4, next == end {
                lastTime = sample.time
                return .sample(sample, expect: nil)
            }
            if fieldCount == 5, next < end, bytes[next] == UInt8(ascii: ","),
                !UnsafeBufferPointer(rebasing: bytes[(next + 1)..<end]).contains(UInt8(ascii: ","))
            {
                lastTime = sample.time
                return labelled(sample, bytes, next + 1, end)
            }
        }
        return anySampleLine(bytes, end)
    }

    /// The start of a line as orientd writes it, `time,x,y,z` with every field
    /// `-?digits[.digits]` of at most 15 digits, parsed in one pass; with the index after
    /// z. Nil for anything else, which `anySampleLine` reads. Hand-written because it is
    /// replay's hottest loop: splitting the line first and parsing each field after took
    /// 45 % of `replay --fast`'s CPU time (perf); one pass takes 25 % less in all. Each
    /// value is `DecimalParser`'s fast path, the same operations in the same order, so
    /// both give the same bits.
    @inline(__always)
    static func plainSample(
        _ bytes: UnsafeBufferPointer<UInt8>, _ end: Int, _ powers: [Double]
    ) -> (Sample, Int)? {
        var i = 0
        guard let t = plainNumber(bytes, &i, end, powers), i < end, bytes[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        guard let x = plainNumber(bytes, &i, end, powers), i < end, bytes[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        guard let y = plainNumber(bytes, &i, end, powers), i < end, bytes[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        guard let z = plainNumber(bytes, &i, end, powers) else { return nil }
        return (Sample(time: t, acceleration: Vector3(x, y, z)), i)
    }

    /// `-?digits[.digits]` from `i` (left after it), at most 15 digits: below 2⁵³, so
    /// `DecimalParser`'s one correctly rounded division applies. Nil otherwise.
    @inline(__always)
    private static func plainNumber(
        _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, _ powers: [Double]
    ) -> Double? {
        var j = i
        let negative = j < end && bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let integerStart = j
        var mantissa: UInt64 = 0
        while j < end, bytes[j] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[j] &- 0x30)
            j += 1
        }
        var digits = j - integerStart
        guard digits > 0 else { return nil }
        var decimals = 0
        if j < end, bytes[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            while j < end, bytes[j] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[j] &- 0x30)
                j += 1
            }
            decimals = j - fractionStart
            guard decimals > 0 else { return nil }
            digits += decimals
        }
        guard digits <= 15 else { return nil }
        i = j
        // Below 2⁵³ both conversions are exact; the signed one is a single instruction.
        var value = Double(Int64(bitPattern: mantissa))
        value = decimals > 0 ? value / powers[decimals] : value
        return negative ? -value : value
    }

    /// Any sample line: blanks, comments, labels, other number forms, and the warnings.
    private mutating func anySampleLine(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Item {
        // Field boundaries, found in one pass.
        var starts = (0, 0, 0, 0, 0)
        var ends = (0, 0, 0, 0, 0)
        var count = 0
        var fieldStart = 0
        var i = 0
        var firstNonSpace = -1
        while i <= end {
            if i == end || bytes[i] == UInt8(ascii: ",") {
                if count < 5 {
                    switch count {
                    case 0:
                        starts.0 = fieldStart
                        ends.0 = i
                    case 1:
                        starts.1 = fieldStart
                        ends.1 = i
                    case 2:
                        starts.2 = fieldStart
                        ends.2 = i
                    case 3:
                        starts.3 = fieldStart
                        ends.3 = i
                    default:
                        starts.4 = fieldStart
                        ends.4 = i
                    }
                }
                count += 1
                fieldStart = i + 1
            } else if firstNonSpace < 0, bytes[i] != 0x20, bytes[i] != 0x09 {
                firstNonSpace = i
            }
            i += 1
        }
        if firstNonSpace < 0 { return .nothing }
        if bytes[firstNonSpace] == UInt8(ascii: "#") { return .nothing }
        guard count == fieldCount else {
            skippedLines += 1
            let expected = fieldCount == 5 ? "time,x,y,z,expect" : "time,x,y,z"
            return .warning(issue("expected \(fieldCount) fields (\(expected)), found \(count); line skipped"))
        }
        var values = (0.0, 0.0, 0.0, 0.0)
        for field in 0..<4 {
            let (s, e): (Int, Int) =
                switch field {
                case 0: (starts.0, ends.0)
                case 1: (starts.1, ends.1)
                case 2: (starts.2, ends.2)
                default: (starts.3, ends.3)
                }
            switch DecimalParser.parse(bytes, s, e) {
            case .value(let v):
                switch field {
                case 0: values.0 = v
                case 1: values.1 = v
                case 2: values.2 = v
                default: values.3 = v
                }
            case .notFinite:
                skippedLines += 1
                return .warning(issue("\(Self.fieldNames[field]) is not finite ('\(Self.text(bytes, s, e))'); line skipped"))
            case .notANumber:
                skippedLines += 1
                return .warning(issue("\(Self.fieldNames[field]) '\(Self.text(bytes, s, e))' is not a number; line skipped"))
            }
        }
        if values.0 < lastTime {
            skippedLines += 1
            return .warning(
                issue("time \(Self.format(values.0)) goes back from \(Self.format(lastTime)); line skipped"))
        }
        lastTime = values.0
        let sample = Sample(time: values.0, acceleration: Vector3(values.1, values.2, values.3))
        if fieldCount == 5 {
            return labelled(sample, bytes, starts.4, ends.4)
        }
        return .sample(sample, expect: nil)
    }

    /// A good sample with its `expect` field, `bytes[s..<e]`.
    private func labelled(_ sample: Sample, _ bytes: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Item {
        let label = Self.text(bytes, s, e).trimmingBlanks
        if label == "-" || label.isEmpty {
            return .sample(sample, expect: nil)
        }
        if let expect = PoseLabel(word: label) {
            return .sample(sample, expect: expect)
        }
        // The sample is good; only its label is not, so keep the sample.
        return .unlabelledSample(
            sample,
            issue(
                "expect '\(label)' is not a device orientation, stable or - (\(PoseLabel.words.joined(separator: ", "))); treated as -")
        )
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        let cut = min(e, s + 40)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[s..<cut]), as: UTF8.self).trimmingBlanks.description
            + (cut < e ? "…" : "")
    }

    private static func format(_ t: Double) -> String {
        var out: [UInt8] = []
        RecordingWriter.appendFixed(t, decimals: 6, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
