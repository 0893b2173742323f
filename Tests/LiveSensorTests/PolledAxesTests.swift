import OrientdCore
import Testing

/// The polled path's raw values go through the one decimal parser (`DecimalParser`, also
/// the recordings' and the attributes'): what sysfs prints, and what it must refuse.
@Suite("Polled raw values")
struct PolledAxesTests {
    func parse(_ text: String) -> DecimalParser.Result {
        Array(text.utf8).withUnsafeBytes { DecimalParser.parse($0) }
    }

    @Test("integers as the kernel prints them, with its newline, padding or a NUL")
    func integers() {
        #expect(parse("-1024\n") == .value(-1024))
        #expect(parse("0\n") == .value(0))
        #expect(parse("3   \n") == .value(3))
        #expect(parse("16384") == .value(16384))
        #expect(parse("-32768\n\0") == .value(-32768))
        #expect(parse(" 12\n") == .value(12))
        #expect(parse("1.5\n") == .value(1.5), "a driver that prints a fraction")
        #expect(parse("1234567890123456789012\n") == .value(1.234567890123456789012e21))
    }

    @Test("anything else is not a number, and the read says so with the attribute")
    func others() {
        for text in ["", "\n", "-\n", "garbage\n", "12a\n", "--3\n", "0x10\n", "1 2\n"] {
            #expect(parse(text) == .notANumber, "\(text.debugDescription)")
        }
        #expect(parse("inf\n") == .notFinite)
        #expect(AttributeValue.number("1.5\n") == .value(1.5))
        #expect(AttributeValue.number("garbage\n") == .invalid("garbage"))
        #expect(AttributeValue.number(nil) == .missing)
    }
}
