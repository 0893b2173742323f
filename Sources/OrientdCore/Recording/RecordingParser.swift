/// Reads a recording one line at a time, without I/O: the caller hands it lines
/// (without their `\n`), so the same parser serves files, pipes and tests.
///
/// What is fatal and what is skipped (docs/recording-format.md, "Recording format" documents the same):
/// - fatal: no column line before the first sample or at the end of input, an unknown
///   column line, an unsupported format version, a `mount-matrix:` that does not parse
///   (unless the caller overrides the matrix), a header line longer than the limit.
/// - skipped with a warning: a sample line with the wrong number of fields, a field that
///   is not a number or not finite, a time earlier than the previous sample's, an
///   over-long line. An `expect` label that is not a pose, `stable` or `-` is dropped
///   with a warning and the sample kept.
/// - accepted silently: blank lines, `#` lines among the samples, `\r\n` line ends,
///   spaces around fields, a missing final newline.
public struct RecordingParser: Sendable {
    public enum Item: Sendable, Equatable {
        /// A comment, a blank line, or a header line whose content arrives with `.header`.
        case nothing
        /// The column line was read: the header is complete.
        case header(RecordingHeader)
        /// A sample; `expect` is nil for `-` or an unlabelled recording.
        case sample(Sample, expect: PoseLabel?)
        /// A good sample whose `expect` word is not a label: it is kept
        /// as `-` and the issue reported.
        case unlabelledSample(Sample, InputIssue)
        /// The line was skipped or something is worth knowing; reading goes on.
        case warning(InputIssue)
        /// Reading cannot go on.
        case fatal(InputIssue)
    }

    public let source: String
    /// Set when `--mount-matrix` overrides the header's, which is then not parsed.
    public let mountMatrixOverridden: Bool
    public private(set) var lineNumber = 0
    public private(set) var header = RecordingHeader()
    /// The header's mount matrix, once read; nil when there is none (identity).
    public private(set) var mountMatrix: MountMatrix?
    /// The line the mount matrix came from, for messages about it.
    public private(set) var mountMatrixLine = 0
    public private(set) var inSamples = false
    public internal(set) var skippedLines = 0
    var lastTime = -Double.infinity
    var fieldCount = 4
    /// `DecimalParser`'s powers of ten, held here so the hot loop does not go through
    /// the global's lazy initialisation for every field.
    let powersOfTen = DecimalParser.powersOfTen

    public init(source: String, mountMatrixOverridden: Bool = false) {
        self.source = source
        self.mountMatrixOverridden = mountMatrixOverridden
    }

    func issue(_ message: String) -> InputIssue {
        InputIssue(source: source, line: lineNumber, message: message)
    }

    /// Counts a line the reader had to cut because it was over its length limit.
    public mutating func consumeOverlongLine(limit: Int) -> Item {
        lineNumber += 1
        if inSamples {
            skippedLines += 1
            return .warning(issue("line longer than \(limit) bytes; line skipped"))
        }
        return .fatal(issue("header line longer than \(limit) bytes"))
    }

    /// Reads the next line (without its line terminator).
    public mutating func consume(line: UnsafeBufferPointer<UInt8>) -> Item {
        lineNumber += 1
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if inSamples {
            return sampleLine(line, end)
        }
        return headerLine(line, end)
    }

    /// The hot path of a recording without labels: the next line when it is a plain sample
    /// in order, read and counted; nil, with nothing read, for any other line, which then
    /// goes to `consume(line:)`. A `Sample` costs less to hand back than an `Item`, which
    /// the caller read back before its stores had landed: 3 % of `replay --fast`'s CPU
    /// time (perf stat).
    public mutating func plainSample(line: UnsafeBufferPointer<UInt8>) -> Sample? {
        guard inSamples, fieldCount == 4 else { return nil }
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard let (sample, next) = Self.plainSample(line, end, powersOfTen), next == end, sample.time >= lastTime else {
            return nil
        }
        lineNumber += 1
        lastTime = sample.time
        return sample
    }

    /// Convenience for tests and small inputs.
    public mutating func consume(line: String) -> Item {
        var copy = line
        return copy.withUTF8 { consume(line: $0) }
    }

    /// Called at the end of input: reports a recording that never reached its samples.
    public func finish() -> Item {
        guard inSamples else {
            return .fatal(
                InputIssue(
                    source: source, line: 0,
                    message: lineNumber == 0
                        ? "empty input; expected an orientd recording ('# orientd-recording 1', then 'time,x,y,z')"
                        : "ended before the column line 'time,x,y,z'; is this an orientd recording?"))
        }
        return .nothing
    }

    // MARK: header

    private mutating func headerLine(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Item {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        let trimmed = text.trimmingBlanks
        if trimmed.isEmpty { return .nothing }
        if trimmed.first == "#" {
            return commentLine(trimmed.dropFirst().trimmingBlanks)
        }
        let columns = trimmed.lowercased().split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingBlanks) }
        let expected = ["time", "x", "y", "z"]
        if columns == expected || columns == expected + ["expect"] {
            header.hasExpectColumn = columns.count == 5
            fieldCount = columns.count
            inSamples = true
            // A missing magic line is tolerated: hand-made CSVs often lack it.
            return .header(header)
        }
        if let first = columns.first, Double(first) != nil {
            return .fatal(issue("a sample before the column line; expected 'time,x,y,z' (or 'time,x,y,z,expect') first"))
        }
        return .fatal(issue("unknown column line '\(trimmed)'; expected 'time,x,y,z' or 'time,x,y,z,expect'"))
    }

    private mutating func commentLine(_ body: Substring) -> Item {
        if body.hasPrefix(RecordingHeader.magic) {
            let versionText = body.dropFirst(RecordingHeader.magic.count).trimmingBlanks
            guard let version = Int(versionText) else {
                return .fatal(issue("'\(RecordingHeader.magic)' must be followed by a version number, found '\(versionText)'"))
            }
            guard version == RecordingHeader.currentVersion else {
                return .fatal(
                    issue("unsupported recording version \(version); this orientd reads version \(RecordingHeader.currentVersion)"))
            }
            header.version = version
            return .nothing
        }
        guard let colon = body.firstIndex(of: ":") else { return .nothing }
        let key = String(body[..<colon].trimmingBlanks)
        // A key is one word like `rate-hz`; anything else is a free comment.
        guard !key.isEmpty, !key.contains(" ") else { return .nothing }
        let value = String(body[body.index(after: colon)...].trimmingBlanks)
        header.metadata.append(.init(key: key, value: value))
        switch key {
        case RecordingHeader.Key.mountMatrix where !mountMatrixOverridden:
            do {
                mountMatrix = try MountMatrix(parsing: value)
                mountMatrixLine = lineNumber
            } catch {
                return .fatal(issue("\(error.message) (give --mount-matrix to override it)"))
            }
        case RecordingHeader.Key.rate:
            if header.rate == nil {
                return .warning(issue("rate-hz '\(value)' is not a positive number; ignored"))
            }
        default:
            break
        }
        return .nothing
    }
}
