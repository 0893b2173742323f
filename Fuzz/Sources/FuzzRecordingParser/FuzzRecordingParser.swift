import FuzzSupport
import OrientdCore

// A recording is whatever file or pipe `orientd replay` is given. The input is cut into
// lines the way LineReader cuts a file and fed to RecordingParser as RecordingReader
// feeds it; the parser's promises about the samples it returns are then checked, with
// the standard library's Double(String) as the oracle for its hand-written DecimalParser.

// LineReader hands lines over 4096 bytes to consumeOverlongLine. A lower limit lets
// inputs within libFuzzer's default -max_len reach that path; the parser only quotes it.
let lineLimit = 256

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // Optional because libFuzzer may pass a null pointer with an empty input.
    let input = UnsafeRawBufferPointer(start: start, count: count)
    var parser = RecordingParser(source: "fuzz")
    var sawHeader = false
    var lastTime = -Double.infinity

    // LineReader's framing: a line ends at `\n`; a last line without one is still a line,
    // but nothing follows a final `\n`.
    var lineStart = 0
    while lineStart < input.count {
        let lineEnd = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
        defer { lineStart = lineEnd + 1 }
        let item =
            lineEnd - lineStart > lineLimit
            ? parser.consumeOverlongLine(limit: lineLimit)
            : withExactCopy(of: UnsafeRawBufferPointer(rebasing: input[lineStart..<lineEnd])) { line in
                parser.consume(line: line)
            }
        switch item {
        case .header:
            require(!sawHeader, "a second column line was taken as the header")
            require(parser.inSamples, "a header was returned but the parser is not in the samples")
            sawHeader = true
        case .sample(let sample, let expect):
            require(sawHeader, "a sample before the header")
            require(expect == nil || parser.header.hasExpectColumn, "an expect label without an expect column")
            check(sample, after: lastTime, line: input[lineStart..<lineEnd], fields: parser.header.hasExpectColumn ? 5 : 4)
            lastTime = sample.time
        case .unlabelledSample(let sample, _):
            require(sawHeader && parser.header.hasExpectColumn, "a label issue without an expect column")
            check(sample, after: lastTime, line: input[lineStart..<lineEnd], fields: 5)
            lastTime = sample.time
        case .fatal:
            // RecordingReader stops at the first fatal issue.
            return 0
        case .nothing, .warning:
            break
        }
        if let matrix = parser.mountMatrix {
            require(
                matrix.row0.isFinite && matrix.row1.isFinite && matrix.row2.isFinite,
                "the header's mount matrix has a non-finite entry: \(matrix)")
        }
        require(parser.skippedLines <= parser.lineNumber, "more lines skipped than read")
    }
    require((parser.finish() == .nothing) == sawHeader, "finish() disagrees with whether the header was read")
    return 0
}

/// What every sample must be: finite, not earlier than the previous one, and made of the
/// numbers its line spells, as Double(String) reads them.
func check(_ sample: Sample, after lastTime: Double, line: Slice<UnsafeRawBufferPointer>, fields fieldCount: Int) {
    require(sample.time.isFinite && sample.acceleration.isFinite, "a non-finite sample: \(sample)")
    require(sample.time >= lastTime, "time went back from \(lastTime) to \(sample.time)")
    var bytes = line[...]
    if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
    let fields = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    require(fields.count == fieldCount, "a sample from a line of \(fields.count) fields; the header has \(fieldCount)")
    let values = [sample.time, sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
    for (var field, value) in zip(fields, values) {
        while let first = field.first, first == 0x20 || first == 0x09 { field = field.dropFirst() }
        while let last = field.last, last == 0x20 || last == 0x09 { field = field.dropLast() }
        let text = String(decoding: field, as: UTF8.self)
        let expected = Double(text)
        require(
            expected == value,
            "'\(text)' was read as \(value); Double(String) reads \(expected.map(String.init(describing:)) ?? "nil")")
    }
}
