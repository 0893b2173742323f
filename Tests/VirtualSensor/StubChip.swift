/// An I2C accelerometer as the kernel's unmodified driver meets it on i2c-stub: the
/// registers it probes, where it keeps each axis and in what form, and how its full-scale
/// range, output data rate and power state are read back from what the driver wrote.
///
/// i2c-stub holds 256 16-bit words a chip: a byte write sets a word's low byte, a word
/// read returns the whole word, an I2C block read the low bytes of consecutive words. So
/// a chip whose driver reads words is written a word per axis, one whose driver reads
/// blocks or bytes (regmap) a byte per register. The facts are in each driver
/// (drivers/iio/accel, drivers/iio/imu/inv_mpu6050) and in i2c-stub's
/// (drivers/i2c/i2c-stub.c, Documentation/i2c/i2c-stub.rst).
enum StubChip: String, CaseIterable, Sendable {
    /// Kionix KXCJK-1013 (ACPI KIOX000A, SMO8500): 12 bits, words read little-endian.
    case kxcjk1013
    /// Bosch BMA250E through bmc150-accel (ACPI BOSC0200): 10 bits, bytes.
    case bma250e
    /// Bosch BMC150's accelerometer through the same driver: 12 bits (a Yoga's base).
    case bmc150 = "bmc150_accel"
    /// MEMSIC MXC4005 (MXC6655 in ACPI): 12 bits, big-endian bytes, no rate to set.
    case mxc4005
    /// ST LIS3DH through st_accel: 12 bits, bytes read with the auto-increment bit.
    case lis3dh
    /// InvenSense MPU-6050 (the PinePhone's MPU-6050/6500 family): 16 bits, big-endian.
    case mpu6050

    /// The i2c device name `new_device` binds the driver by (its IIO name too).
    var name: String { rawValue }

    /// Its address on the stub adapter: distinct, so that every chip can be on one bus.
    var address: UInt8 {
        switch self {
        case .kxcjk1013: 0x0f
        case .bma250e: 0x18
        case .bmc150: 0x10
        case .mxc4005: 0x15
        case .lis3dh: 0x19
        case .mpu6050: 0x68
        }
    }

    /// The identity registers the driver checks at probe, and their values.
    var identity: [(register: UInt8, value: UInt8)] {
        switch self {
        case .kxcjk1013: [(0x0f, 0x11)]
        case .bma250e: [(0x00, 0xf9)]
        case .bmc150: [(0x00, 0xfa)]
        case .mxc4005: [(0x0e, 0x40)]
        // st_sensors reads WHO_AM_I as a single byte; regmap may set the auto-increment bit.
        case .lis3dh: [(0x0f, 0x33), (0x8f, 0x33)]
        case .mpu6050: [(0x75, 0x68)]
        }
    }

    /// How the driver reads the three axes.
    enum Access: Sendable {
        /// A little-endian word per axis at `first`, `first + 2`, `first + 4`.
        case words(first: UInt8)
        /// Two bytes per axis from `first` on, in this order; each address in `mirrors`
        /// holds the same bytes (the auto-increment alias of the registers).
        case bytes(first: UInt8, bigEndian: Bool, mirrors: [UInt8])
    }

    var access: Access {
        switch self {
        case .kxcjk1013: .words(first: 0x06)
        case .bma250e, .bmc150: .bytes(first: 0x02, bigEndian: false, mirrors: [])
        case .mxc4005: .bytes(first: 0x03, bigEndian: true, mirrors: [])
        case .lis3dh: .bytes(first: 0x28, bigEndian: false, mirrors: [0xa8])
        case .mpu6050: .bytes(first: 0x3b, bigEndian: true, mirrors: [])
        }
    }

    /// Significant bits of a reading, held left-justified in 16.
    var bits: Int {
        switch self {
        case .bma250e: 10
        case .mpu6050: 16
        default: 12
        }
    }

    /// The registers `range` and `rate` read: where the driver writes its configuration.
    var configurationRegisters: [UInt8] {
        switch self {
        case .kxcjk1013: [0x1b, 0x21]
        case .bma250e, .bmc150: [0x0f, 0x10, 0x11]
        case .mxc4005: [0x0d]
        case .lis3dh: [0x20, 0x23]
        case .mpu6050: [0x19, 0x1c, 0x6b, 0x6c]
        }
    }

    /// The full-scale range in g that the driver configured, from the low bytes of the
    /// `configurationRegisters` (a register missing from `registers` reads 0).
    func range(_ registers: [UInt8: UInt8]) -> Double {
        let register = { (address: UInt8) in registers[address] ?? 0 }
        switch self {
        case .kxcjk1013:
            // CTRL1 GSEL, bits 4:3: ±2, 4, 8 g.
            return [2, 4, 8, 8][Int(register(0x1b) >> 3) & 3]
        case .bma250e, .bmc150:
            // PMU_RANGE: 0x03 ±2, 0x05 ±4, 0x08 ±8, 0x0c ±16 g (other values: ±2 g).
            switch register(0x0f) & 0x0f {
            case 0x05: return 4
            case 0x08: return 8
            case 0x0c: return 16
            default: return 2
            }
        case .mxc4005:
            // CONTROL FSR, bits 6:5: ±2, 4, 8 g.
            return [2, 4, 8, 8][Int(register(0x0d) >> 5) & 3]
        case .lis3dh:
            // CTRL_REG4 FS, bits 5:4: ±2, 4, 8, 16 g.
            return [2, 4, 8, 16][Int(register(0x23) >> 4) & 3]
        case .mpu6050:
            // ACCEL_CONFIG AFS_SEL, bits 4:3: ±2, 4, 8, 16 g.
            return [2, 4, 8, 16][Int(register(0x1c) >> 3) & 3]
        }
    }

    /// The output data rate the driver configured, in Hz, or nil when the chip is powered
    /// down or has no rate of its own (it then converts as often as it is read).
    func rate(_ registers: [UInt8: UInt8]) -> Double? {
        let register = { (address: UInt8) in registers[address] ?? 0 }
        switch self {
        case .kxcjk1013:
            // CTRL1 PC1 (bit 7) clear: standby. DATA_CTRL OSA, bits 3:0.
            guard register(0x1b) & 0x80 != 0 else { return nil }
            let rates: [UInt8: Double] = [
                0x08: 0.781, 0x09: 1.563, 0x0a: 3.125, 0x0b: 6.25, 0x00: 12.5, 0x01: 25, 0x02: 50, 0x03: 100, 0x04: 200,
                0x05: 400, 0x06: 800, 0x07: 1600,
            ]
            return rates[register(0x21) & 0x0f]
        case .bma250e, .bmc150:
            // PMU_LPW bit 7 (suspend) or 5 (deep suspend): asleep. PMU_BW: the filter's
            // bandwidth, 0x08 7.81 Hz doubling to 0x0f 1000 Hz; data twice as often.
            guard register(0x11) & 0xa0 == 0 else { return nil }
            let bandwidth = Int(register(0x10) & 0x1f)
            guard bandwidth >= 0x08 else { return 15.63 }
            return 15.625 * Double(1 << (min(bandwidth, 0x0f) - 0x08))
        case .mxc4005:
            return nil
        case .lis3dh:
            // CTRL_REG1 ODR, bits 7:4: 0 power-down, then 1 10 25 50 100 200 400 Hz.
            let rates: [Double?] = [nil, 1, 10, 25, 50, 100, 200, 400, 1600, 1344]
            let code = Int(register(0x20) >> 4)
            return code < rates.count ? rates[code] : nil
        case .mpu6050:
            // PWR_MGMT_1 SLEEP (bit 6), or the accelerometer's axes in standby (PWR_MGMT_2
            // bits 5:3): asleep. SMPLRT_DIV: 1 kHz / (1 + divider) with the filter on.
            guard register(0x6b) & 0x40 == 0, register(0x6c) & 0x38 != 0x38 else { return nil }
            return 1000 / (1 + Double(register(0x19)))
        }
    }

    /// A reading in m/s² as the chip's counts at `range` g: rounded, clipped to its bits.
    func counts(_ acceleration: Double, range: Double) -> Int {
        let full = 1 << (bits - 1)
        let lsb = range * 9.80665 / Double(full)
        return max(-full, min(full - 1, Int((acceleration / lsb).rounded())))
    }

    /// The register writes that hold one reading, in order: each `block` an I2C block
    /// write (a byte into each word's low byte, atomically, as block and byte readers
    /// read), each `word` a word write (for a driver that reads a word per axis; its low
    /// byte the same as the block's, so either reader sees one reading).
    func writes(x: Int, y: Int, z: Int) -> [StubWrite] {
        let shift = 16 - bits
        let held = [x, y, z].map { UInt16(truncatingIfNeeded: $0 << shift) }
        switch access {
        case .words(let first):
            // The buffer path reads the six bytes as a block; raw reads a word an axis.
            let bytes = held.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
            return [.block(first, bytes)] + held.enumerated().map { .word(first + UInt8($0.offset * 2), $0.element) }
        case .bytes(let first, let bigEndian, let mirrors):
            let bytes = held.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xff)] : [UInt8($0 & 0xff), UInt8($0 >> 8)] }
            return ([first] + mirrors).map { .block($0, bytes) }
        }
    }

    /// Registers the driver writes at one address and reads back at another (st_sensors
    /// reads every register with the auto-increment bit 0x80; the part ignores that bit
    /// for a single register, i2c-stub does not): copied from `from` to `to` on each tick,
    /// so the driver's read-modify-writes see what it wrote.
    var aliases: [(from: UInt8, to: UInt8, count: Int)] {
        self == .lis3dh ? [(0x20, 0xa0, 8)] : []
    }
}

/// One transfer on the stub bus.
enum StubWrite: Equatable {
    case block(UInt8, [UInt8])
    case word(UInt8, UInt16)
}
