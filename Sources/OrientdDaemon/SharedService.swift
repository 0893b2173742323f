import Glibc
import OrientdCore
import OrientdIO
import Synchronization
import SystemPackage

/// The `OrientationService` shared by the thread that produces samples and the control
/// thread that serves consumers, behind one lock, so samples and commands are applied in
/// one order and every consumer sees the same sequence.
///
/// The producer classifies on its own thread (no hand-off per sample: at 100 Hz a
/// hand-off per sample cost more than the classification) and wakes the control thread
/// only when something is to be sent, once per batch.
public final class SharedService: Sendable {
    private struct State {
        var service: OrientationService
        var ready = false
        var end: SourceEnd?
    }

    private let state: Guarded<State>
    private let stopped = Atomic<Bool>(false)
    /// Readable when the control thread has something to do.
    public let wake: WakeUp
    /// Items waiting beyond this make the producer wait: nothing is dropped, and a
    /// stalled consumer with backpressure (replay's stdout) slows the replay down instead
    /// of growing memory.
    public static let outboxLimit = 1024

    /// How the source ended.
    public enum SourceEnd: Sendable, Equatable {
        /// The recording ended.
        case completed
        /// Nothing more can come; the command exits with `status` after `message`.
        case failed(status: ExitStatus, message: String)
    }

    public init(service: OrientationService, ready: Bool) throws(Errno) {
        state = Guarded(State(service: service, ready: ready))
        wake = try WakeUp()
    }

    // MARK: Producer side (any thread)

    /// A reading as the adaptive rate decided: classified, read at rest, or skipped.
    public func take(_ sample: Sample, as decision: AdaptiveRate.Decision) {
        update { $0.take(sample, as: decision) }
    }

    /// An event of the display sensor's thread, applied under one lock (the service
    /// decides what it means); one that leaves nothing to read ends the source.
    public func report(_ event: SensorEvent<SensorAttachment>) {
        var outcome = OrientationService.SourceOutcome.continues
        update { outcome = $0.apply(event) }
        if case .cannotContinue(let message) = outcome { finish(.failed(status: .unavailable, message: message)) }
    }

    /// An event of a convertible's base accelerometer.
    public func reportBase(_ event: SensorEvent<SensorAttachment>) {
        update { $0.applyBase(event) }
    }

    /// An event of the tablet-mode switches.
    public func reportSwitch(_ event: SwitchEvent) {
        update { $0.applySwitch(event) }
    }

    /// The base accelerometer is no longer read: the service no longer wants it.
    public func baseNoLongerRead() {
        update { $0.baseNoLongerRead() }
    }

    public func post(_ item: OrientationService.Outgoing) {
        update { $0.post(item) }
    }

    /// The source is ready: control commands can be taken (a replay knows its panel only
    /// once the header is read). A new pipeline replaces the placeholder.
    public func ready(_ pipeline: OrientationPipeline?) {
        state.withLock {
            if let pipeline {
                var fresh = OrientationService(pipeline: pipeline)
                $0.service.takeOutbox().forEach { fresh.post($0) }
                $0.service = fresh
            }
            $0.ready = true
        }
        wake.signal()
    }

    public func finish(_ end: SourceEnd) {
        state.withLock { $0.end = $0.end ?? end }
        wake.signal()
    }

    /// Asks the producer to stop waiting for room; its next call returns at once.
    public func stop() {
        stopped.store(true, ordering: .releasing)
    }

    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    private func update(_ body: (inout OrientationService) -> Void) {
        // The room is looked for and the change applied under one lock: taking it twice
        // per sample cost 6 % of `replay --fast`'s CPU time (perf stat).
        while true {
            let applied: Bool? = state.withLock { state in
                if state.service.outbox.count >= Self.outboxLimit && !isStopped { return nil }
                let empty = state.service.outbox.isEmpty
                body(&state.service)
                return empty && !state.service.outbox.isEmpty
            }
            guard let wasEmpty = applied else {
                // Only reached when the control thread is held up by a consumer with
                // backpressure; a short sleep is simpler than a condition variable here.
                usleep(1000)
                continue
            }
            if wasEmpty { wake.signal() }
            return
        }
    }

    // MARK: Control side

    public func withService<R>(_ body: (inout OrientationService) -> R) -> R {
        state.withLock { body(&$0.service) }
    }

    public var isReady: Bool { state.withLock { $0.ready } }
    public var end: SourceEnd? { state.withLock { $0.end } }
    public var outboxCount: Int { state.withLock { $0.service.outbox.count } }
}

/// Something that produces samples on a thread of its own into a `SharedService`.
public protocol SampleSource: Sendable {
    /// Starts; returns at once.
    func start(into service: SharedService)
    /// Asks the thread to end soon; it calls nothing on the service afterwards except,
    /// possibly, `finish`.
    func stop()
    /// What `status` shows for the source ("iio:device0", a recording's name).
    var name: String { get }
    /// The service's policy changed (a reload): a source that reads more or less with it
    /// (the base accelerometer, read only with `rotate-in tablet`) adjusts.
    func policyChanged(in service: SharedService)
    /// The CLOCK_MONOTONIC reading, in seconds, at which the stream's `time` is 0, for a
    /// source on the system's clock (a live sensor); nil for a recording, whose time is
    /// its own. `status` shows it, so a client can place events on the system's clock.
    var clockOrigin: Double? { get }
    /// Whether the source reads only while something consumes the events
    /// (`ReadingDemand`): a live sensor does; a recording is played whatever happens.
    var readsOnDemand: Bool { get }
    /// Reads, or stops reading while nothing consumes the events; called before `start`
    /// with the first answer, then whenever it changes. Only for `readsOnDemand`.
    func setReading(_ reading: Bool)
}

extension SampleSource {
    public func policyChanged(in service: SharedService) {}
    public var clockOrigin: Double? { nil }
    public var readsOnDemand: Bool { false }
    public func setReading(_ reading: Bool) {}
}
