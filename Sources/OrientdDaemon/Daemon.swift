import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// The long-running part of `run` and `replay`: one control thread that serves standard
/// input and output, the control socket and its clients, the hooks and the signals, in
/// one poll(2) loop, while the source classifies on its own thread.
///
/// The daemon owns the loop: it watches the descriptors (`PollSet`) and hands each ready
/// one to the part whose job it is: `Subscribers` writes lines under each reader's
/// overflow policy, `ControlRequests` answers requests, `HookRunner` runs the hooks; the
/// classifier's events come from the `SharedService`'s outbox. It handles the signals
/// (a reload, the ending). What the process needs before any thread starts is
/// `ProcessSetup`'s; what systemd is told, `ServiceNotifications`'.
///
/// A hand-written loop rather than SwiftNIO or Swift concurrency: the daemon serves a
/// handful of descriptors at a few events per minute, and its CPU and resident-size
/// targets (docs/classifier.md, "Live cost") leave no room for an event-loop group or Foundation.
public final class Daemon {
    public let configuration: Configuration
    let diagnostics: Diagnostics
    let process: ProcessSetup
    let hooks: HookRunner
    let shared: SharedService
    private let streams: StandardStreams
    let subscribers: Subscribers
    /// Made on first use: it calls back into the daemon for the outbox and the status.
    private lazy var requests = ControlRequests(
        shared: shared, subscribers: subscribers, stateFile: configuration.stateFile, diagnostics: diagnostics,
        deliverOutbox: { [unowned self] in broadcastOutbox() }, statusReply: { [unowned self] in statusReply() })
    let notifications: ServiceNotifications
    /// The hooks of the last batch that failed, and why: `status` says (`orientd doctor`).
    var lastHookFailures: [(command: String, error: String)] = []
    let started = MonotonicClock.now
    var sourceName = ""
    var sourceClockOrigin: Double?
    /// Set once; the loop ends when it is.
    var ending: Ending?
    /// Tells the running source that a reload changed the policy.
    private var sourcePolicyChanged: () -> Void = {}
    /// Who consumes the events now, as last told to the source.
    var demand: ReadingDemand?
    /// Tells a source that reads on demand whether to read.
    private var sourceSetReading: ((Bool) -> Void)?
    /// Whether what only the start needed has been given back (`ProcessSetup.returnStartMemory`).
    var startMemoryReturned = false

    /// Sets up what must exist before any thread starts (`ProcessSetup`). Throws a
    /// message for what cannot be made, the control socket among them.
    public init(configuration: Configuration, service: OrientationService, ready: Bool, diagnostics: Diagnostics) throws(DaemonError) {
        self.configuration = configuration
        self.diagnostics = diagnostics
        process = try ProcessSetup(configuration: configuration)
        let shared: SharedService
        do {
            shared = try SharedService(service: service, ready: ready)
        } catch {
            throw DaemonError(status: .systemError, message: "cannot set up the control loop: \(error)")
        }
        notifications = ServiceNotifications {
            shared.withService { service in
                guard let current = service.pipeline.current else { return nil }
                let policy = service.pipeline.policy
                return "screen \(current.screenType.rawValue), device \(policy.device.rawValue), \(policy.isLocked ? "locked" : "unlocked")"
            }
        }
        hooks = HookRunner(commands: configuration.hooks, timeout: configuration.hookTimeout)
        self.shared = shared
        let streams = StandardStreams(readingCommands: configuration.commandsFromStandardInput)
        self.streams = streams
        subscribers = Subscribers(
            standard: Endpoint(
                name: "standard input", origin: "stdin", read: streams.input, write: .standardOutput, isSocket: false,
                blockingWrites: streams.blockingOutput, policy: configuration.standardOutputPolicy, subscribed: true),
            maximumClients: configuration.maximumClients, diagnostics: diagnostics,
            currentState: { shared.withService { ($0.pipeline.lastTime, $0.pipeline.current) } })
    }

    /// Runs until the source ends, a signal, or standard output's reader leaves;
    /// returns the exit status.
    public func run(source: some SampleSource) -> ExitStatus {
        sourceName = source.name
        sourceClockOrigin = source.clockOrigin
        sourcePolicyChanged = { [shared] in source.policyChanged(in: shared) }
        if source.readsOnDemand { sourceSetReading = { source.setReading($0) } }
        // Before the start, so a sensor nobody consumes is never read, not even briefly.
        updateDemand()
        notifications.start(now: MonotonicClock.now)
        source.start(into: shared)
        defer {
            shared.stop()
            source.stop()
            streams.restore()
        }
        while ending == nil {
            waitAndServe()
        }
        finishUp()
        return ending?.status ?? .success
    }

    // MARK: The loop

    private enum Slot {
        case wake, signals, listener, standardInput, standardOutput
        case clientRead(Endpoint)
        case clientWrite(Endpoint)
        case clientHangUp(Endpoint)
        case hook
    }

    private func waitAndServe() {
        var watched = PollSet<Slot>()
        func watch(_ fd: FileDescriptor, _ events: PollEvents, _ slot: Slot) {
            watched.watch(fd, for: events, as: slot)
        }
        let output = subscribers.standard
        let holdingBack = output.policy == .backpressure && output.output.count >= OutboundBuffer.defaultLimit
        if !holdingBack { watch(shared.wake.descriptor, .readable, .wake) }
        watch(process.signals.descriptor, .readable, .signals)
        let ready = shared.isReady
        if ready, let listener = process.listener { watch(listener.descriptor, .readable, .listener) }
        if ready, let fd = output.readDescriptor { watch(fd, .readable, .standardInput) }
        // A pipe's write end reports POLLERR when its reader closes it: watched even with
        // nothing to write, so a run whose consumer left stops at once (and the sensor with
        // it) instead of at its next event.
        if !output.blockingWrites && !output.isClosed {
            watch(output.writeDescriptor, output.wantsWriteReadiness ? .writable : [], .standardOutput)
        }
        for client in subscribers.clients {
            if ready, let fd = client.readDescriptor { watch(fd, .readable, .clientRead(client)) }
            if client.wantsWriteReadiness {
                watch(client.writeDescriptor, .writable, .clientWrite(client))
            } else if client.isSocket, client.subscribed, client.readDescriptor == nil, !client.isClosed {
                // A subscriber that closed its sending side is no longer read, so its
                // leaving would be noticed only at the next write, and it would count as a
                // consumer (`ReadingDemand`) till then. POLLHUP, always reported, says
                // when it has gone altogether.
                watch(client.writeDescriptor, [], .clientHangUp(client))
            }
        }
        for fd in hooks.descriptors { watch(fd, .readable, .hook) }
        let deadline = [hooks.deadline, notifications.watchdogDeadline].compactMap({ $0 }).min()
        let readySlots: [(slot: Slot, events: PollEvents)]
        do {
            readySlots = try watched.wait(timeout: deadline.map { $0 - MonotonicClock.now })
        } catch {
            diagnostics.warning("poll: \(error)")
            return
        }
        var wokeForEvents = false
        for (slot, events) in readySlots {
            switch slot {
            case .wake: wokeForEvents = true
            case .signals: handleSignals()
            case .listener: if let listener = process.listener { subscribers.accept(from: listener) }
            case .standardInput: requests.read(from: output)
            case .standardOutput:
                if !events.isDisjoint(with: [.error, .hangUp]) && output.output.isEmpty {
                    subscribers.standardOutputHungUp()
                } else {
                    subscribers.flush(output)
                }
            case .clientRead(let client): requests.read(from: client)
            case .clientWrite(let client): subscribers.flush(client)
            case .clientHangUp(let client):
                if !events.isDisjoint(with: [.error, .hangUp]) { client.connection = .closed }
            case .hook: break
            }
        }
        if wokeForEvents {
            shared.wake.drain()
            broadcastOutbox()
        }
        reportHooks()
        notifications.keepAlive(now: MonotonicClock.now)
        requests.releaseDeparted()
        subscribers.removeFinished()
        updateDemand()
        if ending == nil, let outputEnding = subscribers.standardOutputEnding { ending = outputEnding }
        if ending == nil, let end = shared.end, shared.outboxCount == 0 {
            switch end {
            case .completed: ending = .sourceEnded(.success)
            case .failed(let status, let message):
                diagnostics.error(message)
                ending = .sourceEnded(status)
            }
        }
    }

    private func handleSignals() {
        for number in process.signals.read() {
            switch number {
            case SIGHUP:
                reloadConfiguration()
            default:
                let name = number == SIGINT ? "SIGINT" : "SIGTERM"
                ending = .signalled(name)
                let time = shared.withService { $0.pipeline.lastTime }
                broadcast(StoppingEvent(time: time, reason: name).jsonLine)
            }
        }
    }

    /// SIGHUP: the lock, the subscribers and the sensor stay; the supported set, the
    /// classifier and the hooks follow the file.
    private func reloadConfiguration() {
        guard let reload = configuration.reload else {
            diagnostics.note("SIGHUP: there is no configuration file to reload; nothing changed")
            return
        }
        notifications.reloading()
        defer { notifications.reloaded() }
        switch reload() {
        case .failed(let message):
            diagnostics.warning("SIGHUP: \(message); keeping the running configuration")
        case .applied(let new):
            shared.withService {
                $0.reconfigure(
                    supported: new.supported, rotateIn: new.rotateIn, parameters: new.parameters, suggestionTimeout: new.suggestionTimeout)
            }
            sourcePolicyChanged()
            hooks.commands = new.hooks
            hooks.timeout = new.hookTimeout
            broadcastOutbox()
            for setting in new.needsRestart {
                diagnostics.note("SIGHUP: \(setting) changed; it takes effect at the next start")
            }
            diagnostics.note("SIGHUP: reloaded \(new.source)")
        }
    }

    // MARK: Reading on demand

    /// Works out who consumes the events and, when that turns reading on or off, tells
    /// the source (`ReadingDemand`). Once per turn of the loop: a subscriber that came or
    /// left, a reload that changed the hooks, all take effect at once.
    private func updateDemand() {
        let now = ReadingDemand(
            standardOutput: subscribers.standard.isClosed ? .discarded : streams.output,
            subscribers: subscribers.subscriberCount, hooks: hooks.commands.count)
        let changed = demand?.reading != now.reading
        demand = now
        guard changed, let sourceSetReading else { return }
        shared.withService { $0.isReading = now.reading }
        sourceSetReading(now.reading)
    }
}
