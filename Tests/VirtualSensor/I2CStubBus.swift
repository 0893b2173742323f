import CVirtualDevices
import Glibc
import SystemPackage

/// The kernel's i2c-stub adapter: an SMBus whose chips are register files that this
/// process writes through /dev/i2c-N and that a kernel driver, bound by `new_device`, reads
/// as hardware. i2c-stub takes its chips' addresses when loaded, so it is loaded with
/// every `StubChip`'s (it holds up to 10).
final class I2CStubBus {
    /// The adapter's name in /sys/bus/i2c/devices/i2c-N/name.
    static let adapterName = "SMBus stub driver"

    let number: Int
    private let descriptor: FileDescriptor

    /// Finds the stub adapter (loading i2c-stub and i2c-dev first if it is not there),
    /// opens its character device, and takes away any chip a killed feeder left bound:
    /// it would be a second accelerometer.
    init() throws(VirtualDeviceError) {
        if Self.adapter() == nil {
            let addresses = StubChip.allCases.map { "0x" + hex($0.address) }.joined(separator: ",")
            let status = system("modprobe i2c-dev && modprobe i2c-stub chip_addr=\(addresses)")
            if status != 0 { throw VirtualDeviceError("modprobe i2c-stub chip_addr=\(addresses) failed (status \(status))") }
        }
        guard let found = Self.adapter() else {
            throw VirtualDeviceError(
                "no i2c-stub adapter (/sys/bus/i2c/devices/i2c-*/name \"\(Self.adapterName)\"): "
                    + "modprobe i2c-stub chip_addr=ADDRESSES, and modprobe i2c-dev")
        }
        number = found
        do {
            descriptor = try FileDescriptor.open(FilePath("/dev/i2c-\(found)"), .readWrite, options: [.closeOnExec])
        } catch {
            throw VirtualDeviceError("cannot open /dev/i2c-\(found): \(error) (is i2c-dev loaded? modprobe i2c-dev)")
        }
        for chip in StubChip.allCases where hasDevice(address: chip.address) {
            try deleteDevice(address: chip.address)
        }
    }

    /// The number N of the stub adapter i2c-N, if it is loaded.
    private static func adapter() -> Int? {
        (0..<64).first { readSysfs("/sys/bus/i2c/devices/i2c-\($0)/name") == adapterName }
    }

    deinit { try? descriptor.close() }

    private var sysfs: String { "/sys/bus/i2c/devices/i2c-\(number)" }

    /// Writes `bytes` from `register` on: one word write when `word`, else one I2C block
    /// write (each byte the low byte of a word), so that a driver never reads half of it.
    func write(chip address: UInt8, register: UInt8, bytes: [UInt8], word: Bool = false) throws(VirtualDeviceError) {
        try select(address)
        var data = bytes
        let size = word ? I2C_SMBUS_WORD_DATA : (bytes.count == 1 ? I2C_SMBUS_BYTE_DATA : I2C_SMBUS_I2C_BLOCK_DATA)
        let result = data.withUnsafeMutableBufferPointer {
            vd_smbus(descriptor.rawValue, UInt8(I2C_SMBUS_WRITE), register, UInt32(size), $0.baseAddress, UInt8($0.count))
        }
        if result < 0 {
            throw VirtualDeviceError(
                "i2c-\(number) chip 0x\(hex(address)): writing register 0x\(hex(register)) failed: \(Errno(rawValue: errno))")
        }
    }

    /// The low byte of the word at `register`: what the driver last wrote there.
    func read(chip address: UInt8, register: UInt8) throws(VirtualDeviceError) -> UInt8 {
        try select(address)
        var data: [UInt8] = [0]
        let result = data.withUnsafeMutableBufferPointer {
            vd_smbus(descriptor.rawValue, UInt8(I2C_SMBUS_READ), register, UInt32(I2C_SMBUS_BYTE_DATA), $0.baseAddress, 1)
        }
        if result < 0 {
            throw VirtualDeviceError(
                "i2c-\(number) chip 0x\(hex(address)): reading register 0x\(hex(register)) failed: \(Errno(rawValue: errno))")
        }
        return data[0]
    }

    /// Every word of a chip's register file set to zero: a chip freshly powered.
    func clear(chip address: UInt8) throws(VirtualDeviceError) {
        for register in 0...255 {
            try write(chip: address, register: UInt8(register), bytes: [0, 0], word: true)
        }
    }

    /// Binds the kernel's driver `name` to the chip at `address` (as a board file or ACPI
    /// would have made the device).
    func newDevice(name: String, address: UInt8) throws(VirtualDeviceError) {
        try Self.writeSysfs("\(sysfs)/new_device", "\(name) 0x\(hex(address))\n")
    }

    /// Takes the device at `address` away: its driver unbinds, its IIO device goes.
    func deleteDevice(address: UInt8) throws(VirtualDeviceError) {
        try Self.writeSysfs("\(sysfs)/delete_device", "0x\(hex(address))\n")
    }

    /// Whether a device is bound at `address` (its directory i2c-N/N-00AA exists).
    func hasDevice(address: UInt8) -> Bool {
        access("/sys/bus/i2c/devices/\(number)-00\(hex(address))", F_OK) == 0
    }

    private func select(_ address: UInt8) throws(VirtualDeviceError) {
        if vd_i2c_force_address(descriptor.rawValue, UInt16(address)) < 0 {
            throw VirtualDeviceError("i2c-\(number): cannot address chip 0x\(hex(address)): \(Errno(rawValue: errno))")
        }
    }

    static func readSysfs(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    static func writeSysfs(_ path: String, _ text: String) throws(VirtualDeviceError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VirtualDeviceError("cannot open \(path): \(Errno(rawValue: errno))") }
        defer { close(fd) }
        let written = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        if written < 0 { throw VirtualDeviceError("writing '\(text.dropLast())' to \(path) failed: \(Errno(rawValue: errno))") }
    }
}

func hex(_ value: UInt8) -> String {
    let digits = String(value, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
}
