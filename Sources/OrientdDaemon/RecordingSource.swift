import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// A recording as a sample source, played at its pace (or faster, or at once) on a thread
/// of its own, so control commands and subscribers work during a replay as they do live.
public struct RecordingSource: SampleSource {
    /// Builds the pipeline once the header is known; throws a message for a fatal header.
    public typealias PipelineMaker =
        @Sendable (RecordingHeader, MountMatrix?, Int, String) throws -> (OrientationPipeline, warnings: [String])

    public let path: String
    public let mountMatrixOverridden: Bool
    /// nil: as fast as possible.
    public let speed: Double?
    public let strict: Bool
    /// Which samples are read, as the live daemon would read them (docs/classifier.md,
    /// "Quiet when still"); the others are skipped.
    public let rate: AdaptiveRateParameters
    /// Play as on a sensor that watches for motion at rest (as the header says when nil
    /// is not given: `RecordingHeader.offersChangeSensitivity`).
    public let watchingSensor: Bool
    public let makePipeline: PipelineMaker
    private let stopSignal: WakeUp

    public init(
        path: String, mountMatrixOverridden: Bool, speed: Double?, strict: Bool,
        rate: AdaptiveRateParameters = AdaptiveRateParameters(), watchingSensor: Bool = false,
        makePipeline: @escaping PipelineMaker
    ) throws(Errno) {
        stopSignal = try WakeUp()
        self.path = path
        self.mountMatrixOverridden = mountMatrixOverridden
        self.speed = speed
        self.strict = strict
        self.rate = rate
        self.watchingSensor = watchingSensor
        self.makePipeline = makePipeline
    }

    public var name: String { path == "-" ? "<stdin>" : path }

    /// A failure the replay command turns into its exit status.
    public struct Failure: Error {
        public var status: ExitStatus
        public var message: String
        public init(status: ExitStatus, message: String) {
            self.status = status
            self.message = message
        }
    }

    public func start(into service: SharedService) {
        do {
            try BackgroundThread.start(name: "replay") { [self] in play(into: service) }
        } catch {
            service.finish(.failed(status: .systemError, message: "cannot start a thread to replay \(name): \(error)"))
        }
    }

    public func stop() { stopSignal.signal() }

    private func play(into service: SharedService) {
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: path, mountMatrixOverridden: mountMatrixOverridden)
        } catch {
            service.finish(.failed(status: .noInput, message: error.description))
            return
        }
        defer { reader.close() }
        var pacer = Pacer(speed: speed ?? 1)
        var samples = 0
        var certain = false
        var schedule = ReplaySchedule(parameters: rate, watchingSensor: watchingSensor)
        // As fast as it goes, a file is parsed on a thread of its own while this one
        // classifies (1M samples: 0.099 → 0.066–0.077 s).
        do {
            try (speed == nil ? reader.readAhead : reader.read) { event in
                if stopSignal.isSignalled { return .stop }
                switch event {
                case .header(let header, let matrix, let line):
                    schedule.start(header)
                    let (pipeline, warnings) = try makePipeline(header, matrix, line, reader.displayName)
                    warnings.forEach { service.post(.warning($0)) }
                    service.ready(pipeline)
                    service.post(.opened("replaying \(reader.displayName)"))
                case .warning(let issue):
                    service.post(.warning(issue.description))
                    if strict { throw Failure(status: .dataError, message: "stopped at the first warning (--strict)") }
                case .sample(let sample, _):
                    let decision = schedule.admit(sample)
                    guard decision.isRead else { return .proceed }
                    samples += 1
                    if speed != nil {
                        let wait = pacer.secondsUntil(sample.time)
                        if wait > 0, stopSignal.wait(seconds: wait) { return .stop }
                    }
                    service.take(sample, as: decision)
                    if !certain { certain = service.withService { $0.pipeline.current != nil } }
                }
                return .proceed
            }
        } catch let failure as Failure {
            service.finish(.failed(status: failure.status, message: failure.message))
            return
        } catch let issue as InputIssue {
            service.finish(.failed(status: .dataError, message: issue.description))
            return
        } catch let error as RecordingReader.OpenError {
            service.finish(.failed(status: .noInput, message: error.description))
            return
        } catch {
            service.finish(.failed(status: .dataError, message: "\(error)"))
            return
        }
        if !certain, !stopSignal.isSignalled {
            service.post(
                .note("no certain orientation in \(samples) sample(s) of \(reader.displayName): were they all in motion, or not in m/s²?"))
        }
        service.finish(.completed)
    }
}
