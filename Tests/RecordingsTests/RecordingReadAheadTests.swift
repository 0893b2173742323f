import Foundation
import OrientdCore
import Testing

@testable import OrientdIO

/// `RecordingReadAhead` against `RecordingReader.read` on the same files: the same events
/// in the same order, and the same failure after them; and its reading thread gone when
/// it returns.
@Suite("RecordingReadAhead: a recording parsed a few batches ahead, on a thread of its own")
struct RecordingReadAheadTests {
    /// An event as text, to compare the two readers' sequences.
    static func text(_ event: RecordingReader.Event) -> String {
        switch event {
        case .header(let header, let matrix, let line): "header \(header) \(String(describing: matrix)) \(line)"
        case .sample(let sample, let expect): "sample \(sample) \(String(describing: expect))"
        case .warning(let issue): "warning \(issue)"
        }
    }

    /// What `read` gave, in order, then what it threw ("end" when nothing).
    static func events(_ read: ((RecordingReader.Event) throws -> LineReader.Next) throws -> Void) -> [String] {
        var seen: [String] = []
        do {
            try read {
                seen.append(text($0))
                return .proceed
            }
            seen.append("end")
        } catch {
            seen.append("thrown \(error)")
        }
        return seen
    }

    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-read-ahead-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Samples `range`, one a millisecond, with a broken line in place of those in `broken`.
    static func samples(_ range: Range<Int>, broken: Set<Int> = [], expect: String? = nil) -> String {
        range.map { i in
            broken.contains(i) ? "\(Double(i) / 1000),x,1,2\n" : "\(Double(i) / 1000),0.5,-9.7,0.8\(expect.map { ",\($0)" } ?? "")\n"
        }.joined()
    }

    static let header = "# orientd-recording 1\n# rate-hz: 1000\n# mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1\n"

    /// A file's text, shown by its name.
    struct Input: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var text: String
    }

    @Test(
        "the same events and the same end as one thread",
        arguments: [
            Input(
                testDescription: "broken lines first, last and on each side of a batch's end",
                text: header + "time,x,y,z\n" + samples(0..<10_000, broken: [0, 4095, 4096, 4097, 8191, 9999])),
            Input(
                testDescription: "labelled samples, each handed over apart from the packed ones",
                text: header + "time,x,y,z,expect\n" + samples(0..<5000, broken: [4096], expect: "portrait")),
            Input(testDescription: "one batch less a line, then the end", text: header + "time,x,y,z\n" + samples(0..<4095)),
            Input(testDescription: "fatal: a sample before the column line", text: header + "0.0,1,2,3\n" + samples(0..<10)),
            Input(testDescription: "fatal at the end: no column line", text: header),
            Input(testDescription: "fatal at the end: empty", text: ""),
        ])
    func sameEvents(input: Input) throws {
        let url = try Self.file(input.text)
        defer { try? FileManager.default.removeItem(at: url) }
        let one = try RecordingReader(path: url.path)
        defer { one.close() }
        let expected = Self.events(one.read)
        let reader = try RecordingReader(path: url.path)
        defer { reader.close() }
        let seen = Self.events { try RecordingReadAhead().read(reader, $0) }
        #expect(seen.count == expected.count)
        let first = zip(seen, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil, "event \(first?.offset ?? 0): \(first?.element.0 ?? "") instead of \(first?.element.1 ?? "")")
    }

    @Test("a consumer that stops early: read returns once the reading thread has stopped, a few batches in")
    func stopsEarly() throws {
        let url = try Self.file(Self.header + "time,x,y,z\n" + Self.samples(0..<100_000))
        defer { try? FileManager.default.removeItem(at: url) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let reader = try RecordingReader(path: url.path)
        defer { reader.close() }
        var count = 0
        try RecordingReadAhead().read(reader) { _ in
            count += 1
            return count == 10 ? .stop : .proceed
        }
        #expect(count == 10)
        // The file's offset: the thread read ahead at most the queue's batches and a
        // chunk, and reads no more once read has returned.
        let offset = try #require(Self.offset(of: url.path))
        usleep(100_000)
        #expect(Self.offset(of: url.path) == offset, "the file still read after read returned")
        #expect(offset < size / 2, "\(offset) of \(size) bytes read for 10 samples")
    }

    /// The offset of this process's descriptor open on `path`, from /proc/self/fdinfo.
    static func offset(of path: String) -> Int? {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        guard
            let fd = descriptors.first(where: {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
            }),
            let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)
        else { return nil }
        return info.split(separator: "\n").first { $0.hasPrefix("pos:") }.flatMap {
            Int($0.dropFirst(4).trimmingCharacters(in: .whitespaces))
        }
    }
}
