import OrientdCore

/// The HID reports of a sensor hub with one 3D accelerometer, as the HID Sensor Usages
/// specification (HUTRR39) lays them out and Linux's hid-sensor-hub and
/// hid-sensor-accel-3d drivers read them: one feature report with the properties the
/// drivers set (reporting state, power state, report interval, sensitivity) and one
/// input report with the three axes. A hub with a change sensitivity (most 2-in-1s')
/// declares it in the feature report; one without leaves it out.
///
/// Written by hand because it is the device: what a hub's firmware declares. Each byte
/// that the kernel's drivers depend on was measured against them: drivers/hid/hid-sensor-hub.c
/// and drivers/iio/accel/hid-sensor-accel-3d.c read it as the real kernel tests show.
enum SensorHubReports {
    static let bus: UInt16 = 0x06  // BUS_VIRTUAL
    static let vendor: UInt32 = 0xFEED
    static let displayProduct: UInt32 = 0xACCE
    static let baseProduct: UInt32 = 0xBA5E

    static let featureID: UInt8 = 1
    static let inputID: UInt8 = 2

    /// Raw counts per m/s²: unit m/s² with unit exponent −2, so the driver reports
    /// `in_accel_scale` 0.01.
    static let countsPerUnit = 100.0

    /// Selectors' values are their position in the list plus this logical minimum.
    static let selectorMinimum: UInt8 = 1

    /// The reporting-state selectors, in the descriptor's order.
    enum ReportingState: UInt8, CaseIterable {
        case noEvents, allEvents, thresholdEvents, noEventsWake, allEventsWake, thresholdEventsWake
        static let usages: [UInt16] = [0x0840, 0x0841, 0x0842, 0x0843, 0x0844, 0x0845]
    }

    /// The power-state selectors, in the descriptor's order.
    enum PowerState: UInt8, CaseIterable {
        case undefined, fullPower, lowPower, standby, sleep, off
        static let usages: [UInt16] = [0x0850, 0x0851, 0x0852, 0x0853, 0x0854, 0x0855]
    }

    /// What the feature report carries.
    struct Properties: Equatable {
        var reporting = ReportingState.noEvents
        var power = PowerState.off
        /// Milliseconds between input reports the driver asked for; 0 is the device's own.
        var reportInterval: UInt32 = 0
        /// Change sensitivity, in counts (0.01 m/s², as the axes): a report is sent only
        /// when an axis has moved by more since the last one sent; 0 sends every reading.
        var sensitivity: UInt16 = 0

        var powerOn: Bool { power == .fullPower || power == .lowPower }
        var reportingOn: Bool { reporting == .allEvents || reporting == .allEventsWake }
    }

    /// The report descriptor; `sensitivity`: the hub declares a change sensitivity.
    static func descriptor(sensitivity: Bool) -> [UInt8] {
        var d: [UInt8] = []
        func usage(_ id: UInt16) { d += [0x0A, UInt8(id & 0xFF), UInt8(id >> 8)] }
        func selectorField(_ property: UInt16, _ selectors: [UInt16]) {
            usage(property)
            d += [0x15, selectorMinimum, 0x25, selectorMinimum + UInt8(selectors.count - 1)]  // logical min, max
            d += [0x75, 0x08, 0x95, 0x01]  // 8 bits, one
            d += [0xA1, 0x02]  // Collection (Logical)
            for selector in selectors { usage(selector) }
            d += [0xB1, 0x00]  // Feature (Data, Array, Absolute)
            d += [0xC0]
        }
        d += [0x05, 0x20]  // Usage Page (Sensors)
        d += [0x09, 0x73]  // Usage (Accelerometer 3D)
        // Physical, not Application: with an application collection Linux 6.1's hub makes
        // no accelerometer device (real-kernel-notes.md).
        d += [0xA1, 0x00]
        d += [0x85, featureID]
        selectorField(0x0316, ReportingState.usages)
        selectorField(0x0319, PowerState.usages)
        usage(0x030E)  // Report Interval, milliseconds
        d += [0x15, 0x00, 0x27, 0xFF, 0xFF, 0xFF, 0x7F, 0x75, 0x20, 0x95, 0x01, 0x55, 0x00, 0xB1, 0x02]
        if sensitivity {
            // Acceleration, change sensitivity (absolute), in the axes' unit and exponent,
            // as the HID sensor usages have a modifier take its data field's.
            usage(0x1452)
            d += [0x15, 0x00, 0x27, 0xFF, 0xFF, 0x00, 0x00, 0x75, 0x10, 0x95, 0x01]
            d += [0x66, 0xE0, 0x11, 0x55, 0x0E, 0xB1, 0x02]
            d += [0x66, 0x00, 0x00]  // unit: none again, for what follows
        }
        d += [0x85, inputID]
        for axis: UInt16 in [0x0453, 0x0454, 0x0455] {
            usage(axis)
            d += [0x17, 0x00, 0x00, 0x00, 0x80, 0x27, 0xFF, 0xFF, 0xFF, 0x7F]  // a whole Int32
            d += [0x75, 0x20, 0x95, 0x01]  // one 32-bit item per axis (one of count 3 is not read)
            d += [0x66, 0xE0, 0x11]  // unit: m/s², the value the kernel compares with
            d += [0x55, 0x0E]  // unit exponent −2
            d += [0x81, 0x02]  // Input (Data, Variable, Absolute)
        }
        d += [0xC0]
        return d
    }

    static func feature(_ p: Properties, sensitivity: Bool) -> [UInt8] {
        var r: [UInt8] = [featureID, p.reporting.rawValue + selectorMinimum, p.power.rawValue + selectorMinimum]
        r += withUnsafeBytes(of: p.reportInterval.littleEndian, Array.init)
        if sensitivity { r += withUnsafeBytes(of: p.sensitivity.littleEndian, Array.init) }
        return r
    }

    /// The properties a set-feature report writes; nil for one that is not this report.
    static func parseFeature(_ data: [UInt8], over current: Properties, sensitivity: Bool) -> Properties? {
        guard data.count >= (sensitivity ? 9 : 7), data[0] == featureID else { return nil }
        var p = current
        if let reporting = ReportingState(rawValue: data[1] &- selectorMinimum) { p.reporting = reporting }
        if let power = PowerState(rawValue: data[2] &- selectorMinimum) { p.power = power }
        p.reportInterval = UInt32(data[3]) | UInt32(data[4]) << 8 | UInt32(data[5]) << 16 | UInt32(data[6]) << 24
        if sensitivity { p.sensitivity = UInt16(data[7]) | UInt16(data[8]) << 8 }
        return p
    }

    /// The counts of one raw reading in m/s², an axis each.
    static func counts(_ sample: Sample) -> [Int32] {
        [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z].map { Int32(clamping: Int(($0 * countsPerUnit).rounded())) }
    }

    /// The input report for one raw reading in m/s².
    static func input(_ sample: Sample) -> [UInt8] {
        var r: [UInt8] = [inputID]
        for counts in counts(sample) { r += withUnsafeBytes(of: counts.littleEndian, Array.init) }
        return r
    }

    /// Whether a hub that last sent `last` sends `next` under `sensitivity` counts: as
    /// firmware does, when an axis has moved by more than that; every reading at 0.
    static func exceeds(_ next: [Int32], _ last: [Int32], sensitivity: UInt16) -> Bool {
        sensitivity == 0 || zip(next, last).contains { abs(Int($0) - Int($1)) > Int(sensitivity) }
    }
}
