import OrientdCore
import OrientdIO
import OrientdLinux
import SystemPackage

/// The live accelerometer as a sample source: `SensorReader`'s thread classifies each
/// reading in place and hands only events to the control thread. On a convertible, its
/// mode sources (`ConvertibleSources`) run beside it.
public struct SensorSource: SampleSource {
    public let reader: SensorReader
    private let convertible: ConvertibleSources

    /// `baseMountMatrix` overrides the base accelerometer's, as `configuration`'s
    /// override does the display's.
    public init(configuration: SensorReader.Configuration, baseMountMatrix: MountMatrix? = nil) throws(Errno) {
        var display = configuration
        display.origin = display.origin ?? Pacer.monotonicNow()
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
        reader.start(
            { event in
                switch event {
                case .sample(let sample):
                    service.process(sample)
                case .still(let sample):
                    service.still(sample)
                case .pace(_, let pace, let hz):
                    service.setReadingRate(ReadingRate(pace: pace, hz: hz))
                case .attached(let info):
                    service.attach(
                        source: info.candidate.id, mountMatrix: info.mountMatrix,
                        event: SensorStateEvent(
                            .attached(
                                name: info.candidate.name, location: info.candidate.location, read: info.readPath.rawValue,
                                rate: info.samplingFrequency),
                            device: info.candidate.id, time: service.withService { $0.pipeline.lastTime }))
                    service.post(
                        .note(
                            "reading \(info.candidate.id) (\(info.candidate.name ?? "unnamed")), \(info.readPath.rawValue)"
                                + (info.polledBecause.map { ": \($0)" } ?? "")))
                    service.post(.opened("reading \(info.candidate.id), \(info.readPath.rawValue)"))
                case .lost(let device, let reason):
                    service.setReadingRate(nil)
                    let time = service.withService { $0.pipeline.lastTime }
                    service.post(.sensor(SensorStateEvent(.lost(reason: reason), device: device, time: time)))
                    service.post(.warning("\(device) lost: \(reason); waiting for it to return"))
                    service.post(.waiting("\(device) lost; waiting for it to return"))
                case .stalled(let device, let seconds, let time):
                    service.post(.sensor(SensorStateEvent(.stalled(seconds: seconds), device: device, time: time)))
                    service.post(
                        .warning("\(device) has sent nothing for \(JSONLineWriter.number(seconds, decimals: 1)) s; still waiting for it"))
                    service.post(.waiting("\(device) stalled"))
                case .hung(let device, let seconds, let time):
                    service.post(.sensor(SensorStateEvent(.hung(seconds: seconds), device: device, time: time)))
                    service.post(.warning(BufferSilence.hungWarning(device, seconds: seconds)))
                    service.post(.waiting("\(device) answers nothing"))
                case .resumed(let device, let seconds, let time):
                    service.post(.sensor(SensorStateEvent(.resumed(afterSeconds: seconds), device: device, time: time)))
                    service.post(.note("\(device) sends again after \(JSONLineWriter.number(seconds, decimals: 1)) s"))
                    service.post(.opened("reading \(device)"))
                case .idle(let device):
                    service.setReadingRate(nil)
                    let time = service.withService { $0.pipeline.lastTime }
                    service.post(.sensor(SensorStateEvent(.idle, device: device, time: time)))
                    service.post(
                        .note("\(device) is not read: nothing consumes the events (no subscriber, no hook, output to the journal)"))
                    service.post(.opened("\(device) idle: nothing consumes the events"))
                case .reading(let device, let read, let because, let at):
                    let time = at ?? service.withService { $0.pipeline.lastTime }
                    let event = SensorStateEvent(.reading(read: read.rawValue, reason: because), device: device, time: time)
                    // Read another way, the stream goes on: the classifier keeps what it has.
                    if because == nil { service.resumeReading(event: event) } else { service.post(.sensor(event)) }
                    service.post(.note("\(device) is read \(read.rawValue): \(because ?? "something consumes the events again")"))
                    service.post(.opened("reading \(device), \(read.rawValue)"))
                case .waiting(let message):
                    service.post(.note(message))
                    service.post(.waiting(message))
                case .warning(let message):
                    service.post(.warning(message))
                case .failed(let message):
                    service.finish(.failed(status: .unavailable, message: message))
                }
            },
            finished: {
                service.finish(.completed)
            })
    }

    public func stop() {
        convertible.stop()
        reader.stop()
    }
}
