/// Polled reads that take much of the poll interval, and the sampling frequency that
/// shortens them. Some drivers wake the chip and wait for a conversion on every read of
/// `in_accel_*_raw`: st_sensors (lis3dh) waits 2 / rate seconds an axis, so at 50 Hz the
/// three axes take 120 ms and a 50 Hz poll gets 8 samples a second. Such a chip is
/// powered only during the read, so a faster rate costs little and the wait shrinks.
public struct SlowPolledReads: Sendable {
    /// Seconds between polls.
    public let interval: Double
    /// `sampling_frequency_available`; without a list (a HID sensor hub) there is
    /// nothing to raise.
    public private(set) var available: String?
    /// The sampling frequency in force.
    public private(set) var rate: Double
    private var slowInARow = 0

    /// A read of the three axes is slow beyond this share of the poll interval.
    public static let slowShare = 0.25
    /// Slow reads in a row before the rate is raised: one is a busy bus.
    public static let patience = 3
    /// The rate is raised no higher than this many times the poll rate.
    public static let ceilingFactor = 8.0

    public init(interval: Double, available: String?, rate: Double) {
        self.interval = interval
        self.available = available
        self.rate = rate
    }

    /// One read of the three axes took `seconds`; the sampling frequency to set now (the
    /// next one offered above the rate in force, within the ceiling), or nil.
    public mutating func observe(readTook seconds: Double) -> Double? {
        guard seconds > interval * Self.slowShare else {
            slowInARow = 0
            return nil
        }
        slowInARow += 1
        guard slowInARow >= Self.patience, let available else { return nil }
        slowInARow = 0
        let ceiling = Self.ceilingFactor / interval
        let offered = available.trimmingSysfs.split { $0 == " " || $0 == "\t" || $0 == "\n" }
            .compactMap { DecimalParser.value(of: $0) }.sorted()
        guard let next = offered.first(where: { $0 > rate + 1e-9 }), next <= ceiling + 1e-9 else { return nil }
        return next
    }

    /// The rate the driver took (it may round), or nil when it refused: then the rate
    /// stays and is not raised again.
    public mutating func set(_ inForce: Double?) {
        guard let inForce else {
            available = nil
            return
        }
        rate = inForce
    }
}
