import CIIO
import OrientdCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The three `in_accel_{x,y,z}_raw` values of a polled accelerometer.
///
/// A local device's files are opened once and each read with one pread(2) at offset 0
/// (sysfs renders the value afresh for every read from the start): 3 system calls a
/// sample. libiio's attribute read is not used on this path because it opens, reads and
/// closes the file on every call, about 27 system calls a sample with the poll (measured
/// with strace -c, docs/classifier.md, "Live cost"). A remote device (a libiio URI) has no local file
/// and is read through libiio.
enum PolledAxes {
    /// Kept-open sysfs files, x, y, z, with their channels' names for messages.
    case files([FileDescriptor], names: [String], device: String)
    /// libiio's attribute reads, for devices without a local syspath.
    case library([IIOChannel], device: String)

    /// Opens the axes of `device`; `syspath` is its sysfs directory when it is local.
    /// Nil when it lacks an axis.
    static func open(_ device: IIODevice, syspath: String?) -> PolledAxes? {
        let channels = ["accel_x", "accel_y", "accel_z"].compactMap { device.channel($0) }
        guard channels.count == 3 else { return nil }
        guard let syspath else { return .library(channels, device: device.id) }
        var descriptors: [FileDescriptor] = []
        var names: [String] = []
        for channel in channels {
            guard let file = iio_channel_attr_get_filename(channel.pointer, "raw").map({ String(cString: $0) }),
                let fd = try? FileDescriptor.open(FilePath(syspath + "/" + file), .readOnly, options: [.closeOnExec])
            else {
                // Not where sysfs should have it: libiio knows its own way.
                for fd in descriptors { try? fd.close() }
                return .library(channels, device: device.id)
            }
            descriptors.append(fd)
            names.append(channel.id)
        }
        return .files(descriptors, names: names, device: device.id)
    }

    /// The raw x, y and z, or the first failure.
    func read() -> Result<(x: Double, y: Double, z: Double), IIOError> {
        do throws(IIOError) {
            return .success((try value(0), try value(1), try value(2)))
        } catch {
            return .failure(error)
        }
    }

    /// One axis's raw value.
    private func value(_ axis: Int) throws(IIOError) -> Double {
        switch self {
        case .files(let descriptors, let names, let device):
            // A sysfs number is at most a few dozen bytes; 64 leaves room for any (a
            // tuple, not an array: no allocation per sample).
            var buffer = (0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64)
            let parsed: Result<Double, IIOError>
            do {
                parsed = try withUnsafeMutableBytes(of: &buffer) { bytes in
                    let n = try descriptors[axis].read(fromAbsoluteOffset: 0, into: bytes, retryOnInterrupt: true)
                    let read = UnsafeRawBufferPointer(rebasing: bytes[0..<n])
                    if case .value(let value) = DecimalParser.parse(read) { return .success(value) }
                    let text = String(decoding: read, as: UTF8.self).trimmingSysfs
                    return .failure(IIOError("reading raw value '\(text)' of", "\(device): \(names[axis])", code: EINVAL))
                }
            } catch {
                throw IIOError("reading", "\(device): \(names[axis])", code: (error as? Errno)?.rawValue ?? EIO)
            }
            return try parsed.get()
        case .library(let channels, let device):
            let text = try channels[axis].attribute("raw")
            guard case .value(let v) = AttributeValue.number(text) else {
                throw IIOError("reading raw value '\(text ?? "")' of", "\(device): \(channels[axis].id)", code: EINVAL)
            }
            return v
        }
    }

    func close() {
        if case .files(let descriptors, _, _) = self {
            for fd in descriptors { try? fd.close() }
        }
    }
}
