import CIIO
import OrientdCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The buffered read path: x, y, z (and the timestamp when the device has one) enabled
/// as scan elements, a trigger when the device needs one, a kernel buffer, and scans
/// decoded with orientd's own `ScanLayout` from each channel's `_type`.
final class BufferedScans {
    let device: IIODevice
    let buffer: IIOBuffer
    let decoder: AccelerometerScanDecoder
    /// libiio's poll descriptor for the buffer: libiio owns it (never closed here).
    let descriptor: FileDescriptor
    /// Scans the kernel buffer holds, and so the most one `read` takes.
    let blocks: Int

    /// `rate`: what the sensor sends at; `holding`: seconds of scans one refill must be
    /// able to take (a reader at rest on a sensor that cannot slow down reads once per
    /// rest interval; a kernel buffer that overflows meanwhile keeps the oldest scans and
    /// drops the newest, the ones that matter).
    init(device: IIODevice, rate: Double, holding seconds: Double = 0) throws {
        self.device = device
        var elements: [(channel: String, index: Int, type: ScanElementType)] = []
        for id in ["accel_x", "accel_y", "accel_z", "timestamp"] {
            guard let channel = device.channel(id), channel.isScanElement else {
                if id == "timestamp" { continue }
                throw IIOError("finding scan element \(id) of", device.id, code: ENOENT)
            }
            guard let type = channel.scanType else {
                throw IIOError("reading the scan type of \(id) of", device.id, code: EINVAL)
            }
            channel.enable()
            elements.append((id, channel.index, type))
        }
        decoder = try AccelerometerScanDecoder(layout: ScanLayout(channels: elements))
        // Timestamps on the monotonic clock when the device lets us choose.
        if device.attributeNames.contains("current_timestamp_clock") {
            try? device.writeAttribute("current_timestamp_clock", "monotonic")
        }
        if device.trigger == nil, let trigger = Self.trigger(for: device) {
            try device.setTrigger(trigger)
        }
        // One scan per refill: libiio makes the refill size the buffer's watermark, and a
        // watermark above 1 leaves a sensor slowed to the rest rate unread until that many
        // scans are in (26 of them at 2 Hz stalled the reader for 13 s on a real kernel).
        // The reader drains the buffer with as many refills as it holds (`read`), and the
        // kernel buffer holds a batch window or a rest interval, whichever is longer.
        let held = max(seconds, 2 / SamplingFrequency.readsPerSecond)
        blocks = Int((rate * held).rounded(.up)) + 4
        buffer = try IIOBuffer(device: device, samples: 1, blocks: blocks)
        try buffer.setBlocking(false)
        descriptor = try buffer.pollDescriptor
        whole =
            device.context.uri == "local"
            ? .allocate(byteCount: blocks * decoder.layout.scanSize, alignment: MemoryLayout<Int64>.alignment) : nil
    }

    /// The device's own data-ready trigger (`bmc150_accel-dev0`), if the context has it.
    static func trigger(for device: IIODevice) -> IIODevice? {
        let number = device.id.reversed().prefix { $0.isNumber }.reversed()
        let triggers = device.context.devices.filter(\.isTrigger)
        let names = [device.name.map { "\($0)-dev\(String(number))" }, device.name.map { "\($0)-trigger" }].compactMap { $0 }
        return triggers.first { t in names.contains(t.name ?? "") } ?? triggers.first { ($0.name ?? "").hasPrefix(device.name ?? "\u{0}") }
    }

    /// The start of a scan that a read cut short; completed by the next read.
    private var partial: [UInt8] = []
    /// Room for every scan the kernel buffer holds, for the one read(2) that takes them
    /// all (`read`); nil for a remote context, read through libiio.
    private let whole: UnsafeMutableRawBufferPointer?

    deinit { whole?.deallocate() }

    /// Reads what the buffer holds and calls `body` for each whole scan. A read that ends
    /// inside a scan (the kernel returns whole scans, but a remote context or a fake
    /// device may not) keeps the piece for the next one, so no scan is lost and none is
    /// decoded from misaligned bytes. Throws EAGAIN when there is nothing to read.
    ///
    /// A local buffer is read with one read(2) of its whole size from libiio's own
    /// descriptor: libiio's refill takes one scan a call (its refill size is the
    /// watermark, which must stay 1, `init`), a system call for each scan. A remote one
    /// is refilled until empty, at most as many times as it holds scans, so a sensor
    /// faster than the reader cannot keep it here.
    func read(_ body: (Int64, Int64, Int64, Int64?) -> Void) throws {
        if let whole {
            let n: Int
            do {
                n = try descriptor.read(into: whole, retryOnInterrupt: true)
            } catch {
                throw IIOError("reading the buffer of", device.id, code: (error as? Errno)?.rawValue ?? EIO)
            }
            take(UnsafeRawBufferPointer(rebasing: whole[0..<n]), body)
            return
        }
        for refill in 0..<blocks {
            do {
                try buffer.refill { take($0, body) }
            } catch let error as IIOError where error.code == EAGAIN && refill > 0 {
                return
            }
        }
    }

    /// Decodes each whole scan in `bytes`, after the piece a read before left.
    private func take(_ bytes: UnsafeRawBufferPointer, _ body: (Int64, Int64, Int64, Int64?) -> Void) {
        let size = decoder.layout.scanSize
        var offset = 0
        if !partial.isEmpty {
            let needed = size - partial.count
            guard bytes.count >= needed else {
                partial += bytes
                return
            }
            partial += bytes.prefix(needed)
            partial.withUnsafeBytes { whole in
                let s = decoder.decode(whole, at: 0)
                body(s.x, s.y, s.z, s.timestamp)
            }
            partial = []
            offset = needed
        }
        while offset + size <= bytes.count {
            let s = decoder.decode(bytes, at: offset)
            body(s.x, s.y, s.z, s.timestamp)
            offset += size
        }
        if offset < bytes.count { partial = Array(bytes[offset...]) }
    }
}
