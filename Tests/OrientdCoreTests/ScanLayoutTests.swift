import Testing

@testable import OrientdCore

@Suite("Scan element types and layouts")
struct ScanLayoutTests {
    @Test(
        "reads the kernel's _type text",
        arguments: [
            ("le:s12/16>>4\n", ScanElementType(endianness: .little, isSigned: true, bits: 12, storageBits: 16, shift: 4)),
            ("be:u16/16>>0", ScanElementType(endianness: .big, isSigned: false, bits: 16, storageBits: 16, shift: 0)),
            ("le:s64/64>>0\0", ScanElementType(endianness: .little, isSigned: true, bits: 64, storageBits: 64, shift: 0)),
            ("le:s16/32X3>>0", ScanElementType(endianness: .little, isSigned: true, bits: 16, storageBits: 32, shift: 0, repeatCount: 3)),
        ])
    func parses(text: String, type: ScanElementType) throws {
        #expect(try ScanElementType(parsing: text) == type)
        #expect(try ScanElementType(parsing: type.description) == type)
    }

    @Test(
        "says what is wrong with a bad _type",
        arguments: [
            ("", "does not start with le: or be:"),
            ("me:s12/16>>4", "does not start with le: or be:"),
            ("le:x12/16>>4", "has no sign"),
            ("le:s12/12>>0", "has storage of 12 bits"),
            ("le:s14/16>>4", "does not fit: 14 bits shifted by 4 exceed 16"),
            ("le:s12/16", "has no '>>'"),
            ("le:s12/16>>4junk", "has no shift or trails text"),
            ("le:s0/16>>0", "does not fit"),
        ])
    func rejects(text: String, message: String) {
        #expect {
            try ScanElementType(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    func decode(_ type: String, _ bytes: [UInt8]) throws -> Int64 {
        let t = try ScanElementType(parsing: type)
        return bytes.withUnsafeBytes { t.decode($0, at: 0) }
    }

    @Test("decodes byte order, sign, shift and width")
    func decodes() throws {
        // -1 as 12 bits shifted up by 4, little endian: 0xFFF0.
        #expect(try decode("le:s12/16>>4", [0xF0, 0xFF]) == -1)
        #expect(try decode("le:s12/16>>4", [0x10, 0x00]) == 1)
        #expect(try decode("le:s12/16>>4", [0xF0, 0x7F]) == 2047)
        #expect(try decode("le:s12/16>>4", [0x00, 0x80]) == -2048)
        #expect(try decode("le:u12/16>>4", [0xF0, 0xFF]) == 4095)
        #expect(try decode("be:s16/16>>0", [0xFF, 0x38]) == -200)
        #expect(try decode("le:s16/16>>0", [0x38, 0xFF]) == -200)
        #expect(try decode("le:s10/16>>6", [0xC0, 0xFF]) == -1, "junk below the data is shifted away")
        #expect(try decode("le:s12/16>>0", [0xFF, 0xF7]) == 2047, "junk above the data is masked")
        #expect(try decode("be:s32/32>>0", [0xFF, 0xFF, 0xFF, 0xFE]) == -2)
        #expect(try decode("le:s64/64>>0", [0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0]) == 1_000_000_000)
        #expect(try decode("le:u8/8>>0", [0xFE]) == 254)
    }

    @Test("lays channels out like the kernel: index order, natural alignment, padded scan")
    func layout() throws {
        let s12 = try ScanElementType(parsing: "le:s12/16>>4")
        let ts = try ScanElementType(parsing: "le:s64/64>>0")
        let layout = try ScanLayout(channels: [
            ("timestamp", 3, ts), ("accel_z", 2, s12), ("accel_x", 0, s12), ("accel_y", 1, s12),
        ])
        #expect(layout.elements.map(\.channel) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(layout.elements.map(\.offset) == [0, 2, 4, 8], "the timestamp aligns to 8")
        #expect(layout.scanSize == 16)
        let noTimestamp = try ScanLayout(channels: [("accel_x", 0, s12), ("accel_y", 1, s12), ("accel_z", 2, s12)])
        #expect(noTimestamp.scanSize == 6)
        let mixed = try ScanLayout(channels: [
            ("accel_x", 0, try ScanElementType(parsing: "le:s8/8>>0")),
            ("accel_y", 1, try ScanElementType(parsing: "le:s32/32>>0")),
            ("accel_z", 2, try ScanElementType(parsing: "le:s8/8>>0")),
        ])
        #expect(mixed.elements.map(\.offset) == [0, 4, 8])
        #expect(mixed.scanSize == 12)
        #expect(throws: ScanLayout.LayoutError.self) { try ScanLayout(channels: [("accel_x", 0, s12), ("accel_y", 0, s12)]) }
        #expect(throws: ScanLayout.LayoutError.self) { try ScanLayout(channels: []) }
    }

    @Test("decodes whole accelerometer scans, with and without a timestamp")
    func accelerometerScans() throws {
        let s12 = try ScanElementType(parsing: "le:s12/16>>4")
        let ts = try ScanElementType(parsing: "le:s64/64>>0")
        let decoder = try AccelerometerScanDecoder(
            layout: ScanLayout(channels: [("accel_x", 0, s12), ("accel_y", 1, s12), ("accel_z", 2, s12), ("timestamp", 3, ts)]))
        // x = 16, y = -1024, z = 5; timestamp 2 s in ns; then a second scan.
        var bytes: [UInt8] = [0x00, 0x01, 0x00, 0xC0, 0x50, 0x00, 0, 0, 0x00, 0x94, 0x35, 0x77, 0, 0, 0, 0]
        bytes += [0x10, 0x00, 0x20, 0x00, 0x30, 0x00, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0]
        let first = bytes.withUnsafeBytes { decoder.decode($0, at: 0) }
        #expect(first.x == 16 && first.y == -1024 && first.z == 5 && first.timestamp == 2_000_000_000)
        let second = bytes.withUnsafeBytes { decoder.decode($0, at: decoder.layout.scanSize) }
        #expect(second.x == 1 && second.y == 2 && second.z == 3 && second.timestamp == 1)
        let be = try ScanElementType(parsing: "be:s16/16>>0")
        let plain = try AccelerometerScanDecoder(
            layout: ScanLayout(channels: [("accel_x", 0, be), ("accel_y", 1, be), ("accel_z", 2, be)]))
        #expect(!plain.hasTimestamp)
        let values = [UInt8]([0x03, 0xE8, 0xFC, 0x18, 0x00, 0x00]).withUnsafeBytes { plain.decode($0, at: 0) }
        #expect(values.x == 1000 && values.y == -1000 && values.z == 0 && values.timestamp == nil)
        #expect {
            try AccelerometerScanDecoder(layout: ScanLayout(channels: [("accel_x", 0, be), ("accel_y", 1, be)]))
        } throws: { error in
            "\(error)" == "the scan has no accel_z channel (it has accel_x, accel_y)"
        }
    }
}
