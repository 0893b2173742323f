import CIIO
import OrientdCore

/// One IIO device of a context. Holds its context, so the C pointers stay valid.
public struct IIODevice {
    let pointer: OpaquePointer
    public let context: IIOContext
    /// `iio:device0`. Kept, not asked of libiio each time: the read loops name the device
    /// on every sample, and a String made from C each time was 7 % of a polled sample's
    /// instructions (callgrind).
    public let id: String

    init(pointer: OpaquePointer, context: IIOContext) {
        self.pointer = pointer
        self.context = context
        id = String(cString: iio_device_get_id(pointer))
    }
    /// The driver's name (`bmc150_accel`), if any.
    public var name: String? { iio_device_get_name(pointer).map { String(cString: $0) } }
    /// The firmware's label (`accel-display`), if any.
    public var label: String? { iio_device_get_label(pointer).map { String(cString: $0) } }
    public var isTrigger: Bool { iio_device_is_trigger(pointer) }

    public var channels: [IIOChannel] {
        (0..<iio_device_get_channels_count(pointer)).compactMap { i in
            iio_device_get_channel(pointer, i).map { IIOChannel(pointer: $0, device: self) }
        }
    }

    public func channel(_ id: String) -> IIOChannel? {
        iio_device_find_channel(pointer, id, false).map { IIOChannel(pointer: $0, device: self) }
    }

    public var attributeNames: [String] {
        (0..<iio_device_get_attrs_count(pointer)).compactMap { i in
            iio_device_get_attr(pointer, i).map { String(cString: $0) }
        }
    }

    /// A device attribute's text (trimmed of the kernel's newline), nil when it does not
    /// exist; throws when it exists but cannot be read.
    public func attribute(_ name: String) throws(IIOError) -> String? {
        guard iio_device_find_attr(pointer, name) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = iio_device_attr_read(pointer, name, &buffer, buffer.count)
        if n < 0 { throw IIOError("reading", "\(id): \(name)", returned: n) }
        return Self.text(buffer)
    }

    public func writeAttribute(_ name: String, _ value: String) throws(IIOError) {
        let n = iio_device_attr_write(pointer, name, value)
        if n < 0 { throw IIOError("writing '\(value)' to", "\(id): \(name)", returned: n) }
    }

    /// The device's trigger, if it has one set.
    public var trigger: IIODevice? {
        var t: OpaquePointer?
        guard iio_device_get_trigger(pointer, &t) == 0, let t else { return nil }
        return IIODevice(pointer: t, context: context)
    }

    public func setTrigger(_ trigger: IIODevice?) throws(IIOError) {
        let r = iio_device_set_trigger(pointer, trigger?.pointer)
        if r < 0 { throw IIOError("setting the trigger \(trigger?.name ?? "none") of", id, returned: Int(r)) }
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingSysfs
    }
}

/// One channel of a device (`accel_x`, `timestamp`).
public struct IIOChannel {
    let pointer: OpaquePointer
    public let device: IIODevice

    public var id: String { String(cString: iio_channel_get_id(pointer)) }
    public var isOutput: Bool { iio_channel_is_output(pointer) }
    public var isScanElement: Bool { iio_channel_is_scan_element(pointer) }
    public var index: Int { Int(iio_channel_get_index(pointer)) }

    /// The channel's storage format as libiio parsed it from `scan_elements/*_type`.
    public var scanType: ScanElementType? {
        guard let f = iio_channel_get_data_format(pointer)?.pointee, f.length > 0 else { return nil }
        return ScanElementType(
            endianness: f.is_be ? .big : .little, isSigned: f.is_signed, bits: Int(f.bits),
            storageBits: Int(f.length), shift: Int(f.shift), repeatCount: max(1, Int(f.repeat)))
    }

    public func attribute(_ name: String) throws(IIOError) -> String? {
        guard iio_channel_find_attr(pointer, name) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = iio_channel_attr_read(pointer, name, &buffer, buffer.count)
        if n < 0 { throw IIOError("reading", "\(device.id): \(id) \(name)", returned: n) }
        return IIODevice.text(buffer)
    }

    public func enable() { iio_channel_enable(pointer) }
}
