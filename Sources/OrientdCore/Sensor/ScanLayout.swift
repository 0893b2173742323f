/// Where each enabled channel sits in one buffer scan, computed the way the kernel does
/// (`iio_compute_scan_bytes`): channels in `index` order, each aligned to its own size,
/// the whole scan padded to its largest element.
public struct ScanLayout: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        /// The channel id, as libiio names it: `accel_x`, `timestamp`.
        public var channel: String
        public var index: Int
        public var type: ScanElementType
        public var offset: Int
    }

    /// Why a layout could not be built.
    public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public let elements: [Element]
    /// Bytes per scan.
    public let scanSize: Int

    public init(channels: [(channel: String, index: Int, type: ScanElementType)]) throws(LayoutError) {
        guard !channels.isEmpty else { throw LayoutError(message: "no channel is enabled in the scan") }
        let sorted = channels.sorted { $0.index < $1.index }
        var elements: [Element] = []
        var offset = 0
        var largest = 1
        for (i, c) in sorted.enumerated() {
            if i > 0, sorted[i - 1].index == c.index {
                throw LayoutError(message: "channels \(sorted[i - 1].channel) and \(c.channel) share scan index \(c.index)")
            }
            let size = c.type.byteCount
            offset = (offset + size - 1) / size * size
            elements.append(Element(channel: c.channel, index: c.index, type: c.type, offset: offset))
            offset += size
            largest = max(largest, size)
        }
        self.elements = elements
        scanSize = (offset + largest - 1) / largest * largest
    }

    public func element(_ channel: String) -> Element? { elements.first { $0.channel == channel } }
}

/// Decodes accelerometer scans: raw x, y, z and the timestamp channel when enabled.
public struct AccelerometerScanDecoder: Hashable, Sendable {
    public let layout: ScanLayout
    private let x: ScanLayout.Element
    private let y: ScanLayout.Element
    private let z: ScanLayout.Element
    private let timestamp: ScanLayout.Element?

    public init(layout: ScanLayout) throws(ScanLayout.LayoutError) {
        func find(_ name: String) throws(ScanLayout.LayoutError) -> ScanLayout.Element {
            guard let e = layout.element(name) else {
                throw ScanLayout.LayoutError(
                    message: "the scan has no \(name) channel (it has \(layout.elements.map(\.channel).joined(separator: ", ")))")
            }
            return e
        }
        self.layout = layout
        x = try find("accel_x")
        y = try find("accel_y")
        z = try find("accel_z")
        timestamp = layout.element("timestamp")
    }

    public var hasTimestamp: Bool { timestamp != nil }

    /// Raw values of one scan starting at `offset` in `bytes` (which must hold a whole scan).
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (x: Int64, y: Int64, z: Int64, timestamp: Int64?) {
        (
            x.type.decode(bytes, at: offset + x.offset),
            y.type.decode(bytes, at: offset + y.offset),
            z.type.decode(bytes, at: offset + z.offset),
            timestamp.map { $0.type.decode(bytes, at: offset + $0.offset) }
        )
    }
}
