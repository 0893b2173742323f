import OrientdCore
import OrientdDaemon
import OrientdIO
import SystemPackage

/// The live accelerometer as a sample source: `SensorReader`'s thread hands each event to
/// the service (`OrientationService.apply(_:)` decides what it means), which classifies a
/// reading in place and wakes the control thread only for what is to be sent. On a
/// convertible, its mode sources (`ConvertibleSources`) run beside it.
public struct SensorSource: SampleSource {
    public let reader: SensorReader
    private let convertible: ConvertibleSources

    /// `baseMountMatrix` overrides the base accelerometer's, as `configuration`'s
    /// override does the display's.
    public init(configuration: SensorReader.Configuration, baseMountMatrix: MountMatrix? = nil) throws(Errno) {
        var display = configuration
        display.origin = display.origin ?? MonotonicClock.now
        var base = display
        base.location = .base
        base.device = nil
        base.wait = true
        base.mountMatrixOverride = baseMountMatrix
        reader = try SensorReader(configuration: display)
        let local = configuration.uri == nil
        convertible = try ConvertibleSources(base: local ? base : nil, watchSwitches: local)
    }

    public func policyChanged(in service: SharedService) { convertible.adjust(service) }

    public var name: String { reader.configuration.device ?? "the display accelerometer" }

    public var clockOrigin: Double? { reader.configuration.origin }

    public var readsOnDemand: Bool { true }

    /// The display sensor and the base sensor pause and resume together; the
    /// tablet-mode switch is read throughout (it costs nothing until it moves).
    public func setReading(_ reading: Bool) {
        reader.setReading(reading)
        convertible.setReading(reading)
    }

    public func start(into service: SharedService) {
        convertible.start(into: service)
        do {
            try reader.start(
                { event in
                    // A reading, the event of every sample, goes in as it is, not rebuilt
                    // as an event of the service's sensor type first.
                    switch event {
                    case .sample(let sample): service.take(sample, as: .classify(paceChange: nil))
                    case .still(let sample): service.take(sample, as: .still)
                    default: service.report(event.map(\.attachment))
                    }
                },
                finished: { service.finish(.completed) })
        } catch {
            service.finish(.failed(status: .systemError, message: "cannot start a thread to read \(name): \(error)"))
        }
    }

    public func stop() {
        convertible.stop()
        reader.stop()
    }
}
