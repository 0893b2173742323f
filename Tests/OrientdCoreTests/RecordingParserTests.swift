import Testing

@testable import OrientdCore

/// Parses a whole text, collecting every item.
func parse(_ text: String, source: String = "test.csv", overridden: Bool = false) -> [RecordingParser.Item] {
    var parser = RecordingParser(source: source, mountMatrixOverridden: overridden)
    var items: [RecordingParser.Item] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    for line in lines {
        let item = parser.consume(line: String(line))
        items.append(item)
        if case .fatal = item { return items }
    }
    items.append(parser.finish())
    return items
}

func samples(_ items: [RecordingParser.Item]) -> [Sample] {
    items.compactMap {
        switch $0 {
        case .sample(let s, _), .unlabelledSample(let s, _): s
        default: nil
        }
    }
}

func issues(_ items: [RecordingParser.Item]) -> [String] {
    items.compactMap {
        switch $0 {
        case .warning(let i), .fatal(let i), .unlabelledSample(_, let i): i.description
        default: nil
        }
    }
}

@Suite("Recording parser")
struct RecordingParserTests {
    let good = """
        # orientd-recording 1
        # rate-hz: 50
        # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
        # made-by: a phone app
        # just a comment without a key
        time,x,y,z,expect
        0.000000,0.0213,-9.7810,0.3012,portrait
        0.020000,-9.78,0.1,0.2,-

        # a note between samples
        0.040000 , 1e-2 , +9.5 , -0.25 ,landscape-left\r
        """

    @Test("reads header, metadata (unknown keys kept), matrix and labelled samples")
    func readsGoodRecording() throws {
        var parser = RecordingParser(source: "good.csv")
        var header: RecordingHeader?
        var got: [(Sample, PoseLabel?)] = []
        for line in good.split(separator: "\n", omittingEmptySubsequences: false) {
            switch parser.consume(line: String(line)) {
            case .header(let h): header = h
            case .sample(let s, let e): got.append((s, e))
            case .nothing: break
            default: Issue.record("unexpected item for '\(line)'")
            }
        }
        let h = try #require(header)
        #expect(h.version == 1)
        #expect(h.rate == 50)
        #expect(h.hasExpectColumn)
        #expect(h["made-by"] == "a phone app")
        #expect(parser.mountMatrix == MountMatrix(Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)))
        #expect(parser.mountMatrixLine == 3)
        #expect(got.count == 3)
        #expect(got[0].0 == Sample(time: 0, acceleration: Vector3(0.0213, -9.7810, 0.3012)))
        #expect(got[0].1 == .pose(.portrait))
        #expect(got[1].1 == nil)
        #expect(got[2].0 == Sample(time: 0.04, acceleration: Vector3(0.01, 9.5, -0.25)))
        #expect(got[2].1 == .pose(.landscapeLeft))
    }

    @Test("a recording without labels or the magic line is accepted")
    func minimalRecording() {
        let items = parse("time,x,y,z\n0,0,-9.8,0\n0.1,0,-9.8,0")
        #expect(samples(items).count == 2)
        #expect(issues(items).isEmpty)
    }

    @Test(
        "fatal header problems name the file and line",
        arguments: [
            ("# orientd-recording 1\n0.0,1,2,3\n", "test.csv:2: a sample before the column line"),
            ("# orientd-recording 1\ntime,x,y\n", "test.csv:2: unknown column line 'time,x,y'"),
            ("# orientd-recording 2\ntime,x,y,z\n", "test.csv:1: unsupported recording version 2"),
            ("# orientd-recording one\n", "test.csv:1: 'orientd-recording' must be followed by a version number"),
            ("# orientd-recording 1\n# mount-matrix: 1, 0; 0, 1\ntime,x,y,z\n", "test.csv:2: mount matrix '1, 0; 0, 1' has 2 row(s)"),
            ("# orientd-recording 1\n# rate-hz: 50\n", "test.csv: ended before the column line"),
            ("", "test.csv: empty input"),
        ])
    func fatalProblems(text: String, message: String) throws {
        let items = parse(text)
        guard case .fatal(let issue) = try #require(items.last) else {
            Issue.record("expected a fatal issue, got \(items)")
            return
        }
        #expect(issue.description.hasPrefix(message), "\(issue.description)")
    }

    @Test("an overridden mount matrix is not parsed, so a broken one is not fatal")
    func overriddenMatrix() {
        let items = parse("# mount-matrix: garbage\ntime,x,y,z\n0,0,-9.8,0\n", overridden: true)
        #expect(samples(items).count == 1)
        #expect(issues(items).isEmpty)
    }

    @Test(
        "bad sample lines are skipped with a warning naming the line",
        arguments: [
            ("0.1,0,-9.8\n", "test.csv:3: expected 4 fields (time,x,y,z), found 3; line skipped"),
            ("0.1,0,-9.8,0,1\n", "test.csv:3: expected 4 fields (time,x,y,z), found 5; line skipped"),
            ("0.1,zero,-9.8,0\n", "test.csv:3: x 'zero' is not a number; line skipped"),
            ("0.1,0,nan,0\n", "test.csv:3: y is not finite ('nan'); line skipped"),
            ("0.1,0,-9.8,inf\n", "test.csv:3: z is not finite ('inf'); line skipped"),
            ("0.1,0,-9.8,1e999\n", "test.csv:3: z is not finite ('1e999'); line skipped"),
            ("0.1,0x1p3,-9.8,0\n", "test.csv:3: x '0x1p3' is not a number; line skipped"),
            ("0.1,,-9.8,0\n", "test.csv:3: x '' is not a number; line skipped"),
            ("-0.5,0,-9.8,0\n", "test.csv:3: time -0.500000 goes back from 0.000000; line skipped"),
        ])
    func skippedLines(line: String, message: String) {
        let items = parse("time,x,y,z\n0,0,-9.8,0\n" + line + "1,0,-9.8,0\n")
        #expect(issues(items) == [message])
        #expect(samples(items).map(\.time) == [0, 1], "the good lines around it are kept")
    }

    @Test("equal timestamps are allowed; a bad label keeps the sample as unlabelled")
    func duplicatesAndLabels() {
        let items = parse("time,x,y,z,expect\n0,0,-9.8,0,portrait\n0,0,-9.8,0,sideways\n")
        #expect(samples(items).count == 2)
        #expect(issues(items).count == 1)
        #expect(issues(items).first?.hasPrefix("test.csv:3: expect 'sideways' is not a device orientation") == true)
    }

    @Test("over-long lines are counted: skipped among samples, fatal in the header")
    func overlongLines() {
        var parser = RecordingParser(source: "x.csv")
        guard case .fatal(let headerIssue) = parser.consumeOverlongLine(limit: 4096) else {
            Issue.record("expected fatal")
            return
        }
        #expect(headerIssue.description == "x.csv:1: header line longer than 4096 bytes")
        var samplesParser = RecordingParser(source: "x.csv")
        _ = samplesParser.consume(line: "time,x,y,z")
        guard case .warning(let issue) = samplesParser.consumeOverlongLine(limit: 4096) else {
            Issue.record("expected a warning")
            return
        }
        #expect(issue.description == "x.csv:2: line longer than 4096 bytes; line skipped")
    }

    @Test("the fast number path agrees exactly with the standard library")
    func numbersAgreeWithStandardLibrary() {
        var random = TestRandom(state: 42)
        var writer: [UInt8] = []
        for _ in 0..<20000 {
            let value = (random.uniform() - 0.5) * 200
            let decimals = Int(random.next() % 8)
            writer.removeAll(keepingCapacity: true)
            RecordingWriter.appendFixed(value, decimals: decimals, to: &writer)
            let text = String(decoding: writer, as: UTF8.self)
            let parsed = writer.withUnsafeBufferPointer { DecimalParser.parse($0, 0, $0.count) }
            #expect(parsed == .value(Double(text)!), "\(text)")
        }
        for text in ["1e3", "-2.5E-2", "+7", ".5", "5.", "123456789012345678901234", "0.000000000000000000000001"] {
            var bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeMutableBufferPointer { DecimalParser.parse(UnsafeBufferPointer($0), 0, $0.count) }
            #expect(parsed == .value(Double(text)!), "\(text)")
        }
        // NULs and newlines in a field are read as Double(String) reads them (the fuzzer
        // found a field "\0\09.5" read as 9.5 once an attribute's NUL and newline were
        // trimmed everywhere); only a whole attribute's text is trimmed of them.
        for text in ["\0\09.5", "9.5\0", "9.5\n", "\n9.5", "\09"] {
            var bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeMutableBufferPointer { DecimalParser.parse(UnsafeBufferPointer($0), 0, $0.count) }
            #expect(parsed == (Double(text).map { .value($0) } ?? .notANumber), "\(text.debugDescription)")
        }
        #expect(Array("\0\09.5".utf8).withUnsafeBufferPointer { DecimalParser.parse($0, 0, $0.count) } == .notANumber)
        #expect(Array("9.5\n\0".utf8).withUnsafeBytes { DecimalParser.parse($0) } == .value(9.5))
    }

    @Test("a raw reading as the kernel writes it takes the integer path, with the general path's value to the bit")
    func sysfsIntegersAgreeWithGeneralPath() {
        var random = TestRandom(state: 11)
        var texts = ["0\n", "-0\n", "1024\n", "-32768\n\0", "7", "123456789012345", "-999999999999999\n"]
        for _ in 0..<5000 {
            let digits = 1 + Int(random.next() % 15)
            let magnitude = (0..<digits).map { _ in String(random.next() % 10) }.joined()
            texts.append((random.next() % 2 == 0 ? "-" : "") + magnitude + "\n")
        }
        for text in texts {
            let whole = Array(text.utf8).withUnsafeBytes { DecimalParser.parse($0) }
            var trimmed = text
            while let last = trimmed.last, last == "\n" || last == "\0" { trimmed.removeLast() }
            let general = Array(trimmed.utf8).withUnsafeBufferPointer { DecimalParser.parse($0, 0, $0.count) }
            guard case .value(let value) = whole, case .value(let expected) = general else {
                Issue.record("\(text.debugDescription): \(whole), \(general)")
                continue
            }
            #expect(value.bitPattern == expected.bitPattern, "\(text.debugDescription)")
            #expect(Array(trimmed.utf8).withUnsafeBufferPointer { DecimalParser.integer($0, $0.count) } != nil, "\(text.debugDescription)")
        }
        // Anything else is the general path's: a sign, blanks, a fraction, 16 digits.
        for text in ["+5", " 5", "5 ", "-", "", "1.0", "12a", "1234567890123456", "--1"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { DecimalParser.integer($0, $0.count) } == nil, "\(text.debugDescription)")
            let whole = Array(text.utf8).withUnsafeBytes { DecimalParser.parse($0) }
            let general = Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0, 0, $0.count) }
            #expect(whole == general, "\(text.debugDescription)")
        }
    }

    @Test("a plain line, read in one pass, gives Double(String)'s values, as the general path does")
    func onePassAgreesWithGeneralPath() {
        var random = TestRandom(state: 37)
        // Random digits, not a double's: a double printed long reads back as itself
        // whichever way it is rounded. 1 to 18 digits, on both sides of the one-pass
        // path's limit of 15, where a mantissa rounded before its division can be wrong.
        func field() -> String {
            let digits = (0..<(1 + Int(random.next() % 18))).map { _ in String(random.next() % 10) }.joined()
            let point = Int(random.next() % UInt64(digits.count + 1))
            let sign = random.next() % 2 == 0 ? "-" : ""
            let fraction = digits.dropFirst(point)
            return sign + (point == 0 ? "0" : String(digits.prefix(point))) + (fraction.isEmpty ? "" : "." + fraction)
        }
        for _ in 0..<5000 {
            let fields = [String(field().filter { $0 != "-" }), field(), field(), field()]
            let expected = fields.map { Double($0)! }
            let line = fields.joined(separator: ",")
            // One pass; the general path (a leading blank); one pass with a label.
            for (columns, input) in [("time,x,y,z", line), ("time,x,y,z", " " + line), ("time,x,y,z,expect", line + ",portrait")] {
                let read = samples(parse("\(columns)\n\(input)\n"))
                let values = read.map { [$0.time, $0.acceleration.x, $0.acceleration.y, $0.acceleration.z] }
                #expect(values == [expected], "\(input)")
            }
            // The reader's hot path takes a plain line (15 digits a field at most) alone,
            // and leaves any other.
            let plain = fields.allSatisfy { $0.filter(\.isNumber).count <= 15 }
            var parser = RecordingParser(source: "test.csv")
            _ = parser.consume(line: "time,x,y,z")
            for (input, taken) in [(line, plain), (" " + line, false)] {
                let sample = Array(input.utf8).withUnsafeBufferPointer { parser.plainSample(line: $0) }
                let values = sample.map { [$0.time, $0.acceleration.x, $0.acceleration.y, $0.acceleration.z] }
                #expect(values == (taken ? expected : nil), "\(input)")
            }
            #expect(parser.lineNumber == (plain ? 2 : 1))
        }
    }
}

@Suite("Recording writer")
struct RecordingWriterTests {
    @Test("fixed-point formatting rounds and signs correctly")
    func fixedPoint() {
        func f(_ v: Double, _ d: Int) -> String {
            var out: [UInt8] = []
            RecordingWriter.appendFixed(v, decimals: d, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(f(0, 4) == "0.0000")
        #expect(f(-0.01, 4) == "-0.0100")
        #expect(f(9.80665, 4) == "9.8067")
        #expect(f(-9.80665, 2) == "-9.81")
        #expect(f(12.5, 0) == "13")
        #expect(f(3.52, 6) == "3.520000")
        #expect(f(1e30, 4) == "1e+30")
    }

    @Test("what the writer writes, the parser reads back")
    func roundTrip() {
        var header = RecordingHeader(hasExpectColumn: true)
        header[RecordingHeader.Key.rate] = "100"
        header[RecordingHeader.Key.mountMatrix] = "0, 1, 0; 1, 0, 0; 0, 0, -1"
        var bytes = Array(header.text.utf8)
        let writer = RecordingWriter()
        var random = TestRandom(state: 7)
        var written: [Sample] = []
        for i in 0..<500 {
            let s = Sample(
                time: Double(i) / 100,
                acceleration: Vector3(random.gaussian() * 5, random.gaussian() * 5, random.gaussian() * 5))
            written.append(s)
            writer.append(s, expect: i % 2 == 0 ? .some(.pose(.faceUp)) : .some(nil), to: &bytes)
        }
        let items = parse(String(decoding: bytes, as: UTF8.self))
        #expect(issues(items).isEmpty)
        let read = samples(items)
        #expect(read.count == written.count)
        for (a, b) in zip(read, written) {
            #expect(abs(a.time - b.time) < 1e-6)
            #expect((a.acceleration - b.acceleration).length < 1e-4)
        }
    }
}
