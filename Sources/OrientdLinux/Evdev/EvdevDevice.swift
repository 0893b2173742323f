import CEvdev
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// An input device (`/dev/input/eventN`) opened through libevdev: its switches' state,
/// kept current by reading its events.
///
/// libevdev rather than reading `struct input_event`s by hand: it resynchronises the
/// state after the kernel drops events (`SYN_DROPPED`), so the switch's value is right
/// even after a burst. Owns the descriptor and the libevdev handle; not Sendable: it lives
/// on the thread that polls it.
final class EvdevDevice {
    let descriptor: FileDescriptor
    private let handle: OpaquePointer
    let path: String

    /// Opens `path` read-only and non-blocking; throws the errno of the open or of
    /// libevdev's first look at the device.
    init(path: String) throws(Errno) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw (error as? Errno) ?? .ioError
        }
        var made: OpaquePointer?
        let r = libevdev_new_from_fd(fd.rawValue, &made)
        guard r == 0, let made else {
            try? fd.close()
            throw Errno(rawValue: -r)
        }
        descriptor = fd
        handle = made
        self.path = path
    }

    deinit {
        libevdev_free(handle)
        try? descriptor.close()
    }

    var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }

    func has(switch code: Int32) -> Bool {
        libevdev_has_event_code(handle, UInt32(EV_SW), UInt32(code)) == 1
    }

    /// The switch's value as libevdev last saw it (1: on).
    func value(ofSwitch code: Int32) -> Int32 {
        libevdev_get_event_value(handle, UInt32(EV_SW), UInt32(code))
    }

    /// Reads every event waiting, resyncing after a drop, so `value(ofSwitch:)` is
    /// current. Throws the errno that ends the device (ENODEV: unplugged).
    func drain() throws(Errno) {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let r = libevdev_next_event(handle, flags, &event)
            switch r {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                continue
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                // The kernel dropped events: libevdev hands the missed changes one by one
                // until -EAGAIN; then back to normal reading.
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            case -EAGAIN:
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return
            case -EINTR:
                continue
            default:
                throw Errno(rawValue: -r)
            }
        }
    }
}
