import OrientdIO
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

    private let outcome = Guarded<Outcome?>(nil)

    init(path: String, value: String) {
        do {
            try start(path: path, value: value)
        } catch {
            outcome.withLock { $0 = .failed("\(path): cannot write '\(value)': no thread for it: \(error)") }
        }
    }

    private func start(path: String, value: String) throws(BackgroundThread.Refusal) {
        try BackgroundThread.start(name: "attribute-write") { [self] in
            let result: Outcome
            do {
                let file = try FileDescriptor.open(FilePath(path), .writeOnly)
                try file.closeAfter { _ = try file.writeAll(Array(value.utf8)) }
                result = .written(readBack: SysfsFile.read(path))
            } catch {
                result = .failed("\(path): cannot write '\(value)': \(error)")
            }
            outcome.withLock { $0 = result }
        }
    }

    /// Nil while the write, or its read back, is under way.
    var finished: Outcome? { outcome.withLock { $0 } }
}
