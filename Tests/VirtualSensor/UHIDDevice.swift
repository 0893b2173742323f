import CVirtualDevices
import Glibc
import SystemPackage

/// One HID device made through /dev/uhid: the kernel treats it as hardware on a virtual
/// bus, binds its own drivers to it by its report descriptor, and asks this process for
/// every report a driver requests. Closing the descriptor (or `destroy`) unplugs it.
final class UHIDDevice {
    /// What the kernel asks of the device.
    enum Request {
        /// A driver opened or closed the device, or the device started or stopped.
        case lifecycle(String)
        /// Get a report: reply with `replyToGet` and the same id.
        case getReport(id: UInt32, number: UInt8, type: UInt8)
        /// Set a report: reply with `replyToSet` and the same id.
        case setReport(id: UInt32, number: UInt8, type: UInt8, data: [UInt8])
        /// An output report, or an event this tool has no use for.
        case other(UInt32)
    }

    /// HID report types in `getReport`/`setReport` (enum uhid_report_type).
    enum ReportType: UInt8 {
        case feature = 0
        case output = 1
        case input = 2
    }

    let descriptor: FileDescriptor
    let name: String
    private var event = uhid_event()

    /// Creates the device. Throws with the reason when /dev/uhid is missing (modprobe
    /// uhid) or refuses.
    init(name: String, reportDescriptor: [UInt8], bus: UInt16, vendor: UInt32, product: UInt32) throws(VirtualDeviceError) {
        self.name = name
        do {
            descriptor = try FileDescriptor.open("/dev/uhid", .readWrite, options: [.closeOnExec, .nonBlocking])
        } catch {
            throw VirtualDeviceError("cannot open /dev/uhid: \(error) (is the uhid module loaded? modprobe uhid)")
        }
        reportDescriptor.withUnsafeBufferPointer { rd in
            vd_uhid_create2(&event, name, rd.baseAddress, UInt16(rd.count), bus, vendor, product)
        }
        do {
            try writeEvent()
        } catch {
            try? descriptor.close()
            throw VirtualDeviceError("/dev/uhid refused to create \(name): \(error)")
        }
    }

    /// Unplugs the device and closes the descriptor.
    func destroy() {
        vd_uhid_destroy(&event)
        try? writeEvent()
        try? descriptor.close()
    }

    /// Sends an input report, as the device does when it has a new reading.
    func sendInput(_ report: [UInt8]) throws(VirtualDeviceError) {
        report.withUnsafeBufferPointer { vd_uhid_input2(&event, $0.baseAddress, UInt16($0.count)) }
        do { try writeEvent() } catch { throw VirtualDeviceError("\(name): sending an input report: \(error)") }
    }

    /// The next request from the kernel, or nil when there is none now.
    func nextRequest() throws(VirtualDeviceError) -> Request? {
        let size = vd_uhid_event_size()
        let n: Int
        do {
            n = try withUnsafeMutableBytes(of: &event) { try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }
        } catch Errno.wouldBlock {
            return nil
        } catch Errno.interrupted {
            return nil
        } catch {
            throw VirtualDeviceError("\(name): reading /dev/uhid: \(error)")
        }
        guard n > 0 else { return nil }
        let type = vd_uhid_type(&event)
        switch type {
        case UHID_GET_REPORT.rawValue:
            var id: UInt32 = 0
            var number: UInt8 = 0
            var kind: UInt8 = 0
            vd_uhid_get_report(&event, &id, &number, &kind)
            return .getReport(id: id, number: number, type: kind)
        case UHID_SET_REPORT.rawValue:
            var id: UInt32 = 0
            var number: UInt8 = 0
            var kind: UInt8 = 0
            var length: UInt16 = 0
            let data = vd_uhid_set_report(&event, &id, &number, &kind, &length)
            return .setReport(id: id, number: number, type: kind, data: Array(UnsafeBufferPointer(start: data, count: Int(length))))
        case UHID_START.rawValue: return .lifecycle("start")
        case UHID_STOP.rawValue: return .lifecycle("stop")
        case UHID_OPEN.rawValue: return .lifecycle("open")
        case UHID_CLOSE.rawValue: return .lifecycle("close")
        default: return .other(type)
        }
    }

    /// Answers a get-report request: `report` starts with the report ID, as the driver
    /// expects; nil answers with an error (EIO), as a device does for a report it lacks.
    func replyToGet(id: UInt32, report: [UInt8]?) throws(VirtualDeviceError) {
        if let report {
            report.withUnsafeBufferPointer { vd_uhid_get_report_reply(&event, id, 0, $0.baseAddress, UInt16($0.count)) }
        } else {
            vd_uhid_get_report_reply(&event, id, UInt16(EIO), nil, 0)
        }
        do { try writeEvent() } catch { throw VirtualDeviceError("\(name): answering a get-report: \(error)") }
    }

    func replyToSet(id: UInt32, accepted: Bool) throws(VirtualDeviceError) {
        vd_uhid_set_report_reply(&event, id, accepted ? 0 : UInt16(EIO))
        do { try writeEvent() } catch { throw VirtualDeviceError("\(name): answering a set-report: \(error)") }
    }

    private func writeEvent() throws(Errno) {
        let size = vd_uhid_event_size()
        // uhid takes one whole event per write(2); a short write is an error there, not a
        // partial success, so writeAll's retrying would be wrong.
        let written: Int
        do {
            written = try withUnsafeBytes(of: &event) { try descriptor.write(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno.ioError
        }
        if written != size { throw Errno.ioError }
    }
}

/// Why a virtual device could not be made or driven; the message says where.
struct VirtualDeviceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
