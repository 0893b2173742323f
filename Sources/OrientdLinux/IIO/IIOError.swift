import CIIO

#if canImport(Glibc)
    import Glibc
#endif

/// A failed libiio call, as a value: what was attempted, on what, and the errno.
public struct IIOError: Error, Hashable, Sendable, CustomStringConvertible {
    public var operation: String
    public var subject: String
    public var code: Int32

    public init(_ operation: String, _ subject: String, code: Int32) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    /// From libiio's convention: a negative return value is −errno.
    init(_ operation: String, _ subject: String, returned: Int) {
        self.init(operation, subject, code: Int32(clamping: -returned))
    }

    /// From a NULL pointer return, which leaves the reason in errno.
    static func fromErrno(_ operation: String, _ subject: String) -> IIOError {
        IIOError(operation, subject, code: errno)
    }

    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        iio_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(subject): \(operation): \(message)" }

    public var isNoDevice: Bool { code == ENODEV || code == ENOENT || code == ENXIO }
}
