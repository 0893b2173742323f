import OrientdIO
import Synchronization
import SystemPackage

/// A write to a sysfs attribute, and the attribute read back after, on a thread of its
/// own. The driver of a sensor that answers nothing holds the writer for its time-outs
/// (10 s on a HID hub: the set and the read back, measured under a `hang`), and the
/// reader must not wait with it, or it would miss the sensor sending again.
final class AttributeWrite: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Written; the value read back after (nil when it could not be read).
        case written(readBack: String?)
        case failed(String)
    }

    private let call: BackgroundCall<Outcome>

    init(path: String, value: String) {
        call = BackgroundCall {
            do {
                let file = try FileDescriptor.open(FilePath(path), .writeOnly)
                try file.closeAfter { _ = try file.writeAll(Array(value.utf8)) }
                return .written(readBack: SysfsFile.read(path))
            } catch {
                return .failed("\(path): cannot write '\(value)': \(error)")
            }
        }
    }

    /// Nil while the write, or its read back, is under way.
    var finished: Outcome? { call.finished }
}

/// A read of a sysfs attribute on a thread of its own, for the same reason: a sensor
/// that answers nothing holds the reader for the driver's time-outs.
final class AttributeRead: Sendable {
    private let call: BackgroundCall<String?>

    init(path: String) {
        call = BackgroundCall { SysfsFile.read(path) }
    }

    /// Nil while the read is under way; then the text, or nil inside when it failed.
    var finished: String?? { call.finished }
}

/// One blocking call made on a thread of its own, and its result once it has one.
final class BackgroundCall<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)

    init(_ work: @escaping @Sendable () -> Value) {
        BackgroundThread.start { [self] in
            let value = work()
            result.withLock { $0 = value }
        }
    }

    var finished: Value? { result.withLock { $0 } }
}
