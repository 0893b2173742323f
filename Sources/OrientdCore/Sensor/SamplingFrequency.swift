/// Chooses a sampling frequency among those a device offers
/// (`sampling_frequency_available`: `7.81 15.63 31.25 62.5 125`): the lowest at or above
/// the rate wanted, else the highest. Slower parts save power; faster ones than needed
/// only wake the CPU more.
public enum SamplingFrequency {
    ///
    /// A device with a sampling frequency but no list takes any rate: a HID sensor hub's
    /// accelerometer (Intel ISH, AMD SFH: most x86 tablets and 2-in-1s) turns it into a
    /// report interval in milliseconds, and left alone reports at whatever the hub last
    /// had (10 Hz from Linux 6.1's driver on a real kernel here). It gets the rate wanted.
    public static func choose(available text: String?, wanted: Double, settable: Bool = false) -> Double? {
        guard let text else { return settable ? wanted : nil }
        let values = text.trimmingSysfs.split { $0 == " " || $0 == "\t" || $0 == "\n" }
            .compactMap { DecimalParser.value(of: $0) }.filter { $0 > 0 }.sorted()
        guard !values.isEmpty else { return nil }
        return values.first { $0 >= wanted - 1e-9 } ?? values.last
    }

    /// How often a buffered sensor is read at most while it moves: each wake-up costs
    /// more CPU than the samples it brings (20 a second keep a 100 Hz sensor under 0.2 %
    /// of a core), and waiting for more adds at most 1/20 s to an answer that takes 200 ms.
    public static let readsPerSecond = 20.0
}
