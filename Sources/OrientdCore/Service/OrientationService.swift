/// The daemon's state and rules, without its I/O: the pipeline, what the sensor source
/// reported, and the control commands, producing the lines to broadcast in order.
///
/// The daemon holds one of these behind a lock shared by the sensor thread (samples) and
/// the control thread (commands), so lock, unlock and samples are applied in one order
/// and every consumer sees the same sequence of events.
public struct OrientationService: Sendable {
    public internal(set) var pipeline: OrientationPipeline
    /// The device being read (sensor id or recording name), for `status`.
    public private(set) var source: String?
    /// The device as a message names it.
    private var sourceName: String { source ?? "the sensor" }
    private var units = UnitsCheck()
    private var implausible = ImplausibleReadings()
    private var frozen = FrozenReadings()
    /// What each source says about a convertible's mode; the pipeline's policy holds the
    /// one believed.
    public internal(set) var modes = ModeReports()
    /// The convertible's hinge, followed from the base and display readings.
    public private(set) var hingeTracker = HingeTracker()
    /// The base accelerometer being read (a convertible's keyboard half), for `status`.
    public private(set) var base: String?
    private var baseMountMatrix = MountMatrix.identity
    /// The tablet-mode switches there are, and where each stands.
    public private(set) var switches = SwitchStates()
    /// The hinge angle in degrees, nil when it cannot be computed.
    public var hinge: Double? { hingeTracker.angle }
    /// What is waiting to be broadcast, oldest first.
    public internal(set) var outbox: [Outgoing] = []
    /// Whether the sensor is read (`ReadingDemand`): while it is not, the pose is the
    /// last one read, and the `orientation` reply says so.
    public var isReading = true
    /// The pace the display sensor is read at (`AdaptiveRate`); nil until a source says.
    public var readingRate: ReadingRate?
    /// What is wrong with the display sensor now, as its events said.
    public private(set) var sensorTrouble: SensorTrouble?

    public enum Outgoing: Sendable {
        /// An orientation event: broadcast, and run the hooks if the screen changed.
        case orientation(OrientationEvent)
        /// The lock changed: broadcast.
        case lock(LockEvent)
        /// A client's request came or went: broadcast.
        case request(RequestEvent)
        /// The convertible's mode changed: broadcast.
        case mode(ModeEvent)
        /// A rotation was offered while locked, or the offer ended: broadcast.
        case suggestion(SuggestionEvent)
        /// The sensor came, went, fell silent or sends again: broadcast.
        case sensor(SensorStateEvent)
        /// For people, on standard error.
        case warning(String)
        case note(String)
        /// The source is open and producing (a sensor attached, a replay started): what
        /// to tell the service manager.
        case opened(String)
        /// The source is waiting (for a sensor to appear or return): the service manager's
        /// status.
        case waiting(String)
    }

    /// What a command did.
    public struct Execution: Sendable {
        public var reply: [UInt8]
        /// The lock changed: persist it.
        public var lockChanged = false
    }

    public init(pipeline: OrientationPipeline) {
        self.pipeline = pipeline
    }

    // MARK: From the source

    public mutating func process(_ sample: Sample) {
        if let message = units.check(sample.acceleration) {
            outbox.append(.warning("\(sourceName): \(message)"))
        }
        checkPlausible(sample)
        if let event = pipeline.process(sample) { outbox.append(.orientation(event)) }
        trackHinge(sample)
        suggest()
    }

    /// Every reading, classified or read at rest: an episode of implausible ones, or of
    /// values that do not update, is said once, and its end.
    private mutating func checkPlausible(_ sample: Sample) {
        // The device's name only for a report: taken for every sample, the string's
        // retain and release were 2 % of `replay --fast`'s instructions.
        if let report = frozen.check(sample) {
            let device = sourceName
            let message = FrozenReadings.message(report, device: device)
            switch report {
            case .began(_, let since, _):
                outbox.append(.warning(message))
                if sensorTrouble == nil { sensorTrouble = .frozen(device: device, since: since) }
            case .ended:
                outbox.append(.note(message))
                if case .frozen = sensorTrouble { sensorTrouble = nil }
            }
        }
        // A wrong scale (the units check said so) explains readings far from gravity.
        guard let report = implausible.check(sample), !units.foundWrong else { return }
        let message = ImplausibleReadings.message(report, device: sourceName)
        if case .began = report { outbox.append(.warning(message)) } else { outbox.append(.note(message)) }
    }

    /// After every change: the suggestion follows the policy (and times out).
    /// Inlined as far as the test that most samples stop at.
    @inline(__always)
    mutating func suggest() {
        guard pipeline.suggestionMayChange else { return }
        for event in pipeline.updateSuggestion() { outbox.append(.suggestion(event)) }
    }

    @inline(__always)
    private mutating func trackHinge(_ sample: Sample) {
        if base != nil, let mode = hingeTracker.display(pipeline.mountMatrix.apply(sample.acceleration), at: sample.time) {
            report(mode, from: .hinge)
        }
    }

    /// A reading at rest that showed no motion (`AdaptiveRate`): not for the classifier,
    /// whose pose cannot have changed, but the time moves on, and a convertible's hinge
    /// angle needs it: the base may be folded while the display is held still.
    public mutating func still(_ sample: Sample) {
        checkPlausible(sample)
        pipeline.advanceClock(to: sample.time)
        trackHinge(sample)
        suggest()
    }

    /// A reading as the adaptive rate decided (`AdaptiveRate.Decision`): classified, read
    /// at rest, or skipped.
    public mutating func take(_ sample: Sample, as decision: AdaptiveRate.Decision) {
        switch decision {
        case .skip: break
        case .still: still(sample)
        case .classify: process(sample)
        }
    }

    /// Whether the base accelerometer should be read: only while the mode holds the
    /// screen (`rotate-in tablet`) and no switch, which is better, answers.
    public var wantsBaseSensor: Bool {
        pipeline.policy.rotateIn == .tablet && switches.mode == nil
    }

    /// The base accelerometer (again), with its mount matrix.
    public mutating func attachBase(source: String, mountMatrix: MountMatrix) {
        base = source
        baseMountMatrix = mountMatrix
        hingeTracker.forgetBase()
    }

    /// A base reading, on the display's clock: the next display reading is paired with it.
    public mutating func processBase(_ sample: Sample) {
        hingeTracker.base(baseMountMatrix.apply(sample.acceleration), at: sample.time)
    }

    /// The base accelerometer began or stopped watching for motion at rest: while it
    /// watches, its latest reading is paired however old (`HingeTracker`).
    public mutating func baseWatching(_ watches: Bool) {
        hingeTracker.baseWatching(watches)
    }

    /// The base accelerometer is gone, or no longer read: the hinge no longer answers.
    public mutating func detachBase() {
        base = nil
        hingeTracker.forgetBase()
        report(nil, from: .hinge)
        suggest()
    }

    /// A tablet-mode switch's position; nil when its device went away.
    public mutating func reportSwitch(_ device: String, _ mode: DeviceMode?) {
        switches.set(device, mode)
        report(switches.mode, from: .switch)
        suggest()
    }

    /// A sensor (or the same one again) is being read; `event` says so to subscribers.
    public mutating func attach(source: String, mountMatrix: MountMatrix, event: SensorStateEvent?) {
        self.source = source
        units = UnitsCheck()
        implausible = ImplausibleReadings()
        frozen = FrozenReadings()
        if case .frozen = sensorTrouble { sensorTrouble = nil }
        pipeline.replaceSensor(mountMatrix: mountMatrix)
        if let event { outbox.append(.sensor(event)) }
    }

    /// The sensor is read again after a pause (`ReadingDemand`): a fresh classifier, as
    /// for a new sensor. The filter and a pending change hold readings from before the
    /// pause, and the reported pose's hysteresis and hold time would slow the first
    /// answer; a fresh one finds the pose as at start (`initial-hold-time`). The screen
    /// and the last event stay, so an event follows only if the pose changed meanwhile
    /// (cause `sensor`, not `start`: the stream had a first state already).
    public mutating func resumeReading(event: SensorStateEvent) {
        sensorTrouble = nil
        units = UnitsCheck()
        implausible = ImplausibleReadings()
        frozen = FrozenReadings()
        pipeline.restartClassifier()
        outbox.append(.sensor(event))
    }

    /// The source's own event (a sensor lost) or message.
    public mutating func post(_ item: Outgoing) {
        if case .sensor(let event) = item { sensorTrouble = SensorTrouble.after(event, was: sensorTrouble) }
        outbox.append(item)
    }

    /// Takes everything waiting to be broadcast.
    public mutating func takeOutbox() -> [Outgoing] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }
}
