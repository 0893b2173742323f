import CIIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A kernel buffer of scans, created after the channels are enabled.
///
/// Owns the C handle; not Sendable: it lives on the thread that reads the sensor.
public final class IIOBuffer {
    let pointer: OpaquePointer
    public let device: IIODevice

    /// - Parameters:
    ///   - samples: scans per refill. libiio also makes it the kernel buffer's
    ///     watermark: poll(2) says readable only once that many scans are in.
    ///   - blocks: the kernel buffer holds `samples` × `blocks` scans (libiio's default
    ///     is 4).
    public init(device: IIODevice, samples: Int, blocks: Int = 4) throws(IIOError) {
        let set = iio_device_set_kernel_buffers_count(device.pointer, UInt32(max(blocks, 1)))
        if set < 0 { throw IIOError("setting the kernel buffer of \(samples * blocks) scans for", device.id, returned: Int(set)) }
        guard let made = iio_device_create_buffer(device.pointer, samples, false) else {
            throw IIOError.fromErrno("creating a buffer of \(samples) scans for", device.id)
        }
        pointer = made
        self.device = device
    }

    /// libiio closes the device's node, then disables the buffer and its channels by their
    /// sysfs paths (`/sys/bus/iio/devices/iio:deviceN/…`). The open node holds the kernel's
    /// device and so its number; once it is closed, a device registered meanwhile takes the
    /// number and those writes. A second descriptor of the node, held until libiio is done,
    /// keeps the number this device's: the writes reach it, or nothing when it is gone.
    /// Close-on-exec: a hook started meanwhile would otherwise keep the node, and the
    /// device busy (EBUSY to the next open), for as long as it runs.
    deinit {
        let node = iio_buffer_get_poll_fd(pointer)
        let held = node >= 0 ? fcntl(node, F_DUPFD_CLOEXEC, 0) : -1
        iio_buffer_destroy(pointer)
        if held >= 0 { close(held) }
    }

    /// A file descriptor that polls readable when a refill would not block. libiio owns
    /// it and closes it with the buffer: callers poll it, never close it, and stop using it
    /// once the buffer is gone.
    public var pollDescriptor: FileDescriptor {
        get throws(IIOError) {
            let fd = iio_buffer_get_poll_fd(pointer)
            if fd < 0 { throw IIOError("getting the poll descriptor of", device.id, returned: Int(fd)) }
            return FileDescriptor(rawValue: fd)
        }
    }

    public func setBlocking(_ blocking: Bool) throws(IIOError) {
        let r = iio_buffer_set_blocking_mode(pointer, blocking)
        if r < 0 { throw IIOError("setting the blocking mode of", device.id, returned: Int(r)) }
    }

    /// Fills the buffer with new scans and hands their bytes to `body`. Throws EAGAIN in
    /// non-blocking mode when nothing is there yet.
    public func refill<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let n = iio_buffer_refill(pointer)
        if n < 0 { throw IIOError("reading the buffer of", device.id, returned: n) }
        guard let start = iio_buffer_start(pointer), let end = iio_buffer_end(pointer) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        let count = min(Int(n), UnsafeRawPointer(end) - UnsafeRawPointer(start))
        return try body(UnsafeRawBufferPointer(start: start, count: max(count, 0)))
    }
}
