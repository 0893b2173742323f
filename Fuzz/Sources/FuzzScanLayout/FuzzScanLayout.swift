import FuzzSupport
import OrientdCore

// A buffered sensor's scans are laid out by its channels' `scan_elements/*_type` texts
// and indices, which the kernel or a umockdev testbed supplies, and decoded from raw
// bytes. The input is readable so that seeds are too:
//
//     accel_x 0 le:s12/16>>4        up to 8 lines of: channel, index, type
//     accel_y 1 le:s12/16>>4
//     accel_z 2 le:s12/16>>4
//     timestamp 3 le:s64/64>>0
//                                   an empty line
//     <raw bytes of the buffer>
//
// Every whole scan is decoded as BufferedScans.read does and compared with a second
// decoder written differently, from the kernel's description of the format.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // Optional because libFuzzer may pass a null pointer with an empty input.
    let input = UnsafeRawBufferPointer(start: start, count: count)
    var channels: [(channel: String, index: Int, type: ScanElementType)] = []
    var position = 0
    while position < input.count {
        let end = input[position...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
        defer { position = end + 1 }
        if end == position { break }  // the empty line: the buffer follows
        let words = String(decoding: input[position..<end], as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard channels.count < 8, words.count == 3, let index = Int(words[1]),
            let type = try? ScanElementType(parsing: words[2])
        else { return 0 }
        check(type)
        channels.append((String(words[0]), index, type))
    }
    guard let layout = try? ScanLayout(channels: channels) else { return 0 }
    check(layout)
    guard let decoder = try? AccelerometerScanDecoder(layout: layout) else { return 0 }

    let buffer = UnsafeRawBufferPointer(rebasing: input[min(position, input.count)...])
    withExactCopy(of: buffer) { decodeEveryScan(UnsafeRawBufferPointer($0), with: decoder) }
    return 0
}

/// Decodes the buffer's whole scans as BufferedScans.read does, checking each value
/// against the reference decoder.
func decodeEveryScan(_ bytes: UnsafeRawBufferPointer, with decoder: AccelerometerScanDecoder) {
    let layout = decoder.layout
    let x = layout.element("accel_x")!
    let y = layout.element("accel_y")!
    let z = layout.element("accel_z")!
    let timestamp = layout.element("timestamp")
    var offset = 0
    while offset + layout.scanSize <= bytes.count {
        let scan = decoder.decode(bytes, at: offset)
        require(
            (scan.timestamp != nil) == (timestamp != nil),
            "decoded timestamp \(String(describing: scan.timestamp)) from a scan \(timestamp == nil ? "without" : "with") one")
        var decoded = [(scan.x, x), (scan.y, y), (scan.z, z)]
        if let timestamp, let value = scan.timestamp { decoded.append((value, timestamp)) }
        for (value, element) in decoded {
            let expected = reference(element.type, bytes, at: offset + element.offset)
            require(value == expected, "\(element.channel) (\(element.type)) decoded as \(value), expected \(expected)")
        }
        offset += layout.scanSize
    }
}

/// A type that parses is one the decoder can read, and its text reads back the same.
func check(_ type: ScanElementType) {
    require([8, 16, 32, 64].contains(type.storageBits), "storage of \(type.storageBits) bits")
    require(type.bits >= 1 && type.shift >= 0 && type.bits + type.shift <= type.storageBits, "\(type) does not fit")
    require(type.repeatCount >= 1, "\(type) repeats \(type.repeatCount) times")
    require((try? ScanElementType(parsing: type.description)) == type, "\(type) does not read back")
}

/// Elements in index order, each aligned to its size, none overlapping the next, all
/// inside the scan: what lets `decode` read without bounds checks.
func check(_ layout: ScanLayout) {
    require(layout.scanSize > 0, "an empty scan")
    var end = 0
    for (i, element) in layout.elements.enumerated() {
        let size = element.type.byteCount
        require(i == 0 || layout.elements[i - 1].index < element.index, "elements out of index order")
        require(element.offset >= end && element.offset % size == 0, "\(element.channel) at \(element.offset)")
        end = element.offset + size
    }
    require(end <= layout.scanSize, "elements end at \(end), past the scan's \(layout.scanSize) bytes")
}

/// The kernel's `[be|le]:[s|u]bits/storage>>shift`, decoded another way than
/// ScanElementType.decode: the bytes assembled by position, the value's bits moved to the
/// top of the word, then brought down with a shift that extends the sign when signed.
func reference(_ type: ScanElementType, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
    let width = type.storageBits / 8
    var word: UInt64 = 0
    for k in 0..<width {
        let significance = type.endianness == .little ? k : width - 1 - k
        word |= UInt64(bytes[offset + k]) << (8 * significance)
    }
    let unused = 64 - type.bits
    let top = (word >> type.shift) << unused
    return type.isSigned ? Int64(bitPattern: top) >> unused : Int64(bitPattern: top >> unused)
}
