import Testing

@testable import OrientdLinux

/// The hand-written parser of the polled path's raw values, against what sysfs prints and
/// what it must leave to the general parser.
@Suite("Polled raw values")
struct PolledAxesTests {
    func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBytes { PolledAxes.integer($0) }
    }

    @Test("integers as the kernel prints them, with its newline, padding or a NUL")
    func integers() {
        #expect(parse("-1024\n") == -1024)
        #expect(parse("0\n") == 0)
        #expect(parse("3   \n") == 3)
        #expect(parse("16384") == 16384)
        #expect(parse("-32768\n\0") == -32768)
    }

    @Test("anything else is not guessed: nil, for the general parser or a warning")
    func others() {
        for text in ["", "\n", "-\n", "garbage\n", "1.5\n", "12a\n", " 12\n", "--3\n", "1234567890123456789012\n"] {
            #expect(parse(text) == nil, "\(text.debugDescription)")
        }
        #expect(PolledAxes.number("1.5\n") == 1.5)
        #expect(PolledAxes.number("garbage") == nil)
    }
}
