import ArgumentParser
import OrientdCore
import OrientdLinux

/// Which sensor to read and how.
struct SensorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read this accelerometer: an IIO id, a name or a label (see 'orientd list').",
            discussion: "Example: --device iio:device1, or --device accel-display", valueName: "device"))
    var device: String?

    @Option(
        help: ArgumentHelp(
            "Read the sensors of a libiio context instead of this machine's.",
            discussion: "A board running iiod, or any libiio URI.\nExample: --uri ip:192.168.1.20",
            valueName: "uri"))
    var uri: String?

    @Option(
        help: ArgumentHelp(
            "Samples per second: the polling rate, and the rate a buffered sensor's frequency is chosen from.",
            discussion: "Example: --rate 100", valueName: "Hz"))
    var rate: Double = 50

    @Flag(help: ArgumentHelp("Poll in_accel_*_raw even when the sensor could be read buffered.", discussion: "Example: --poll"))
    var poll = false

    func validate() throws {
        guard rate.isFinite, rate >= 0.1, rate <= 2000 else { throw ValidationError("--rate must be between 0.1 and 2000 Hz, got \(rate)") }
    }

    /// `adaptiveRate`: when to read slower; off for commands that want every sample.
    func configuration(
        mountMatrix: MountMatrix?, wait: Bool, adaptiveRate: AdaptiveRateParameters = AdaptiveRateParameters()
    ) -> SensorReader.Configuration {
        SensorReader.Configuration(
            uri: uri, device: device, mountMatrixOverride: mountMatrix, rate: rate, adaptiveRate: adaptiveRate, forcePolling: poll,
            wait: wait)
    }
}
