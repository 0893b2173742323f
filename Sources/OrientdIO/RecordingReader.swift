import OrientdCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a recording from a file or standard input (`-`) through `RecordingParser`.
public struct RecordingReader: Sendable {
    /// The name used in messages: the path as given, or `<stdin>`.
    public let displayName: String
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    public let mountMatrixOverridden: Bool

    /// Why a recording could not be read at all.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens `path`, or standard input for `-`.
    public init(path: String, mountMatrixOverridden: Bool = false) throws(OpenError) {
        self.mountMatrixOverridden = mountMatrixOverridden
        if path == "-" {
            displayName = "<stdin>"
            descriptor = .standardInput
            ownsDescriptor = false
            return
        }
        displayName = path
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw OpenError(description: "cannot open recording '\(path)': \(error)")
        }
        ownsDescriptor = true
    }

    public func close() {
        if ownsDescriptor { try? descriptor.close() }
    }

    /// What the reader hands to its caller.
    public enum Event: Sendable {
        case header(RecordingHeader, mountMatrix: MountMatrix?, mountMatrixLine: Int)
        case sample(Sample, expect: PoseLabel?)
        case warning(InputIssue)
    }

    /// As `read`, but a regular file is read and parsed on a thread of its own, a few
    /// thousand lines ahead of `handle` (`RecordingReadAhead`), for a caller that goes as
    /// fast as it can. Anything else is read on this thread: a pipe may be a live
    /// `orientd record`, whose samples must not wait for a batch to fill.
    public func readAhead(_ handle: (Event) throws -> LineReader.Next) throws {
        var info = stat()
        // No eventfd for the two threads (out of descriptors): one thread will do.
        guard fstat(descriptor.rawValue, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let ahead = try? RecordingReadAhead()
        else { return try read(handle) }
        try ahead.read(self, handle)
    }

    /// Reads to the end (or until `handle` says stop). Throws the fatal `InputIssue`
    /// or an `OpenError` for a failed read.
    public func read(_ handle: (Event) throws -> LineReader.Next) throws {
        var parser = RecordingParser(source: displayName, mountMatrixOverridden: mountMatrixOverridden)
        var fatal: InputIssue?
        let reader = LineReader(descriptor: descriptor)
        func dispatch(_ item: RecordingParser.Item, _ parser: RecordingParser) throws -> LineReader.Next {
            switch item {
            case .nothing:
                return .proceed
            case .sample(let sample, let expect):
                return try handle(.sample(sample, expect: expect))
            case .unlabelledSample(let sample, let issue):
                if try handle(.warning(issue)) == .stop { return .stop }
                return try handle(.sample(sample, expect: nil))
            case .header(let header):
                return try handle(.header(header, mountMatrix: parser.mountMatrix, mountMatrixLine: parser.mountMatrixLine))
            case .warning(let issue):
                return try handle(.warning(issue))
            case .fatal(let issue):
                fatal = issue
                return .stop
            }
        }
        do {
            try reader.forEachLine { line in
                if let sample = parser.plainSample(line: line) { return try handle(.sample(sample, expect: nil)) }
                let item = parser.consume(line: line)
                return try dispatch(item, parser)
            } overlong: {
                let item = parser.consumeOverlongLine(limit: reader.maximumLineLength)
                return try dispatch(item, parser)
            }
        } catch let error as Errno {
            throw OpenError(description: "cannot read recording '\(displayName)': \(error)")
        }
        if let fatal { throw fatal }
        if case .fatal(let issue) = parser.finish() { throw issue }
    }
}
