import CIIO
import OrientdCore

#if canImport(Glibc)
    import Glibc
#endif

/// An open libiio context: the local machine's IIO devices, or a remote board's through
/// iiod (`ip:HOST`), or any other libiio URI. Reading a sensor is the same code either way.
///
/// Owns the C handle; not Sendable: it lives on the thread that reads the sensor.
public final class IIOContext {
    let pointer: OpaquePointer
    /// The URI it was made from, or "local".
    public let uri: String

    /// - Parameter uri: a libiio context URI (`local:`, `ip:192.168.1.5`, `usb:…`), or nil
    ///   for the local machine.
    public init(uri: String? = nil) throws(IIOError) {
        let made: OpaquePointer? = uri.map { iio_create_context_from_uri($0) } ?? iio_create_local_context()
        guard let made else {
            throw IIOError.fromErrno("creating the IIO context", uri ?? "local")
        }
        pointer = made
        self.uri = uri ?? "local"
    }

    deinit { iio_context_destroy(pointer) }

    /// Bounds every blocking libiio call (buffer refills included), in milliseconds;
    /// 0 waits forever.
    public func setTimeout(milliseconds: UInt32) throws(IIOError) {
        let r = iio_context_set_timeout(pointer, milliseconds)
        if r < 0 { throw IIOError("setting the timeout", uri, returned: Int(r)) }
    }

    public var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(pointer)).compactMap { i in
            iio_context_get_device(pointer, i).map { IIODevice(pointer: $0, context: self) }
        }
    }

    public func device(named idOrName: String) -> IIODevice? {
        iio_context_find_device(pointer, idOrName).map { IIODevice(pointer: $0, context: self) }
    }
}
