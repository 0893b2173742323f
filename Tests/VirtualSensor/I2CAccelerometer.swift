import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// An I2C accelerometer on i2c-stub playing a recording: the chip's registers hold the
/// newest sample as its counts, at the range and no faster than the output data rate the
/// driver configured, as the part itself would. The kernel's unmodified driver (bound by
/// `new_device`) reads them as from hardware.
///
/// Faults are those a register file can show (`Fault.Kind.onRegisters`): what the
/// registers hold while one is on.
///
/// A register file cannot tell when it is read, so an on-demand start begins when the
/// owner arms it (the daemon answers on its socket); until then the registers hold the
/// first sample, a device at rest in its first pose.
final class I2CAccelerometer: PlayedAccelerometer {
    let chip: StubChip
    let location: VirtualAccelerometer.Location
    private(set) var playback: Playback
    private let startPolicy: VirtualAccelerometer.Start
    private let faults: [Fault]
    /// Deleted by a `replug` fault, to be instantiated again when it ends.
    private var replugging = false
    var armed = true
    private let bus: I2CStubBus
    private var plugged = false
    /// The range and rate last read back, and what was last written under them.
    private var configuration: (range: Double, rate: Double?)?
    private var lastWritten: (round: Int, index: Int, at: Double)?
    /// Readings written into the registers since the start.
    private(set) var readingsWritten = 0
    private let log: (String) -> Void

    init(
        chip: StubChip, location: VirtualAccelerometer.Location, playback: Playback, start: VirtualAccelerometer.Start,
        bus: I2CStubBus, faults: [Fault] = [], log: @escaping (String) -> Void
    ) {
        self.faults = faults
        self.chip = chip
        self.location = location
        self.playback = playback
        self.startPolicy = start
        self.bus = bus
        self.log = log
    }

    var descriptor: FileDescriptor? { nil }
    var driver: String { chip.name }

    /// Powers the register file up as the part (identity registers, the first sample),
    /// then binds the driver; throws when it does not bind (the probe failed: dmesg says why).
    func plug() throws(VirtualDeviceError) {
        guard !plugged else { return }
        if bus.hasDevice(address: chip.address) { try bus.deleteDevice(address: chip.address) }
        try bus.clear(chip: chip.address)
        for (register, value) in chip.identity { try bus.write(chip: chip.address, register: register, bytes: [value]) }
        configuration = nil
        lastWritten = nil
        try writeReading(index: 0, now: MonotonicClock.now)
        try bus.newDevice(name: chip.name, address: chip.address)
        // udevd loads the driver's module by the device's modalias and the driver core
        // probes it: moments on a machine, a second or two under TCG.
        let bound = "/sys/bus/i2c/devices/\(bus.number)-00\(hex(chip.address))/driver"
        let deadline = MonotonicClock.now + 15
        while access(bound, F_OK) != 0 && MonotonicClock.now < deadline { usleep(20_000) }
        guard access(bound, F_OK) == 0 else {
            try? bus.deleteDevice(address: chip.address)
            throw VirtualDeviceError(
                "the kernel's \(chip.name) driver did not bind to i2c-\(bus.number) 0x\(hex(chip.address)) within 15 s (dmesg says why)")
        }
        plugged = true
        log(
            #"{"event":"plugged","device":"\#(location.rawValue)","driver":"\#(chip.name)","time":\#(JSONLineWriter.number(MonotonicClock.now))}"#
        )
        if startPolicy == .atPlug && !playback.hasStarted { begin(at: MonotonicClock.now) }
    }

    func unplug() {
        guard plugged else { return }
        plugged = false
        do {
            try bus.deleteDevice(address: chip.address)
        } catch {
            log(#"{"event":"error","device":"\#(location.rawValue)","message":"unplugging: \#(error)"}"#)
        }
        log(#"{"event":"unplugged","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(MonotonicClock.now))}"#)
    }

    func serveRequests() throws(VirtualDeviceError) {}

    func armIfDemanded() {
        armed = true
        if !playback.hasStarted && startPolicy == .onDemand { begin(at: MonotonicClock.now) }
    }

    private func begin(at now: Double) {
        playback.begin(at: now)
        lastWritten = nil
        log(#"{"event":"started","device":"\#(location.rawValue)","time":\#(JSONLineWriter.number(now, decimals: 6))}"#)
    }

    func play(_ next: Playback) {
        let started = playback.hasStarted
        playback = next
        lastWritten = nil
        if started { playback.begin(at: MonotonicClock.now) }
    }

    func tick(now: Double) throws(VirtualDeviceError) -> Double? {
        let replug = playback.hasStarted && faults.contains { $0.kind == .replug && $0.isOn(at: playback.recordingTime(at: now)) }
        if replug && plugged {
            unplug()
            replugging = true
        } else if !replug && replugging {
            replugging = false
            try plug()
        }
        if replugging { return now + 0.05 }
        guard plugged else { return nil }
        let changed = try readConfiguration(now: now)
        guard playback.hasStarted else {
            if changed { try writeReading(index: 0, now: now) }
            return now + 0.05
        }
        if playback.hasEnded(at: now) {
            guard playback.loops else { return nil }
            playback.rewind(at: now)
        }
        let (index, _) = playback.current(at: now)
        let period = configuration?.rate.map { 1 / $0 } ?? 0
        let isNew = lastWritten.map { $0.round != playback.round || $0.index != index } ?? true
        // A chip converts once an output-data-rate period: a newer sample waits for the next.
        let converted = lastWritten.map { now - $0.at >= period - 0.001 } ?? true
        if changed || (isNew && converted) { try writeReading(index: index, now: now) }
        var next = playback.due(index + 1) ?? (playback.loops ? now + playback.spacing : now + 0.05)
        if let last = lastWritten, period > 0 { next = max(next, last.at + period) }
        return next
    }

    func hasFinished(at now: Double) -> Bool {
        !playback.loops && playback.hasEnded(at: now)
    }

    /// Reads back the range and rate the driver set; true when they changed (a new range
    /// changes the counts a reading is held as). Each change is logged.
    private func readConfiguration(now: Double) throws(VirtualDeviceError) -> Bool {
        var registers: [UInt8: UInt8] = [:]
        for address in chip.configurationRegisters {
            registers[address] = try bus.read(chip: chip.address, register: address)
        }
        for alias in chip.aliases {
            var bytes: [UInt8] = []
            for offset in 0..<alias.count { bytes.append(try bus.read(chip: chip.address, register: alias.from + UInt8(offset))) }
            try bus.write(chip: chip.address, register: alias.to, bytes: bytes)
        }
        let range = chip.range(registers)
        let rate = chip.rate(registers)
        if let old = configuration, old.range == range, old.rate == rate { return false }
        configuration = (range, rate)
        let rateText = rate.map { JSONLineWriter.number($0) } ?? "null"
        log(
            #"{"event":"configured","device":"\#(location.rawValue)","range":\#(JSONLineWriter.number(range)),"rate":\#(rateText),"time":\#(JSONLineWriter.number(now))}"#
        )
        return true
    }

    private func writeReading(index: Int, now: Double) throws(VirtualDeviceError) {
        let range = configuration?.range ?? chip.range([:])
        let sample = playback.samples[index]
        let a = Fault.reading(sample, at: playback.recordingTime(at: now), under: faults) { playback.sample(at: $0) }.acceleration
        let writes = chip.writes(
            x: chip.counts(a.x, range: range), y: chip.counts(a.y, range: range), z: chip.counts(a.z, range: range))
        for write in writes {
            switch write {
            case .block(let register, let bytes): try bus.write(chip: chip.address, register: register, bytes: bytes)
            case .word(let register, let value):
                try bus.write(chip: chip.address, register: register, bytes: [UInt8(value & 0xff), UInt8(value >> 8)], word: true)
            }
        }
        lastWritten = (playback.round, index, now)
        readingsWritten += 1
    }
}
