import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// The long-running part of `run` and `replay`: one control thread that serves standard
/// input and output, the control socket and its clients, the hooks and the signals, in
/// one poll(2) loop, while the source classifies on its own thread.
///
/// The daemon owns the loop and the process's life: set-up, signals and reload, systemd's
/// notifications, and the ending. It hands each ready descriptor to the part whose job it
/// is: `Subscribers` writes lines under each reader's overflow policy, `ControlRequests`
/// answers requests, `HookRunner` runs the hooks; the classifier's events come from the
/// `SharedService`'s outbox.
///
/// A hand-written loop rather than SwiftNIO or Swift concurrency: the daemon serves a
/// handful of descriptors at a few events per minute, and its CPU and resident-size
/// targets (docs/classifier.md, "Live cost") leave no room for an event-loop group or Foundation.
public final class Daemon {
    public let configuration: Configuration
    private let diagnostics: Diagnostics
    private let signals: SignalDescriptor
    private let listener: UnixListener?
    private let hooks: HookRunner
    private let shared: SharedService
    private let streams: StandardStreams
    private let subscribers: Subscribers
    /// Made on first use: it calls back into the daemon for the outbox and the status.
    private lazy var requests = ControlRequests(
        shared: shared, subscribers: subscribers, stateFile: configuration.stateFile, diagnostics: diagnostics,
        deliverOutbox: { [unowned self] in broadcastOutbox() }, statusReply: { [unowned self] in statusReply() })
    private let notifier = ServiceNotifier()
    private var notifiedReady = false
    private var nextWatchdog: Double?
    /// What STATUS= says about the source, before the orientation.
    private var sourceStatus = "starting"
    /// The hooks of the last batch that failed, and why: `status` says (`orientd doctor`).
    private var lastHookFailures: [(command: String, error: String)] = []
    private let started = Pacer.monotonicNow()
    private var sourceName = ""
    private var sourceClockOrigin: Double?
    /// Set once; the loop ends when it is.
    private var ending: Ending?
    /// Tells the running source that a reload changed the policy.
    private var sourcePolicyChanged: () -> Void = {}
    /// Who consumes the events now, as last told to the source.
    private var demand: ReadingDemand?
    /// Tells a source that reads on demand whether to read.
    private var sourceSetReading: ((Bool) -> Void)?

    /// Sets up what must exist before any thread starts: the blocked signals (threads
    /// inherit the mask) and the socket (created under a tightened umask, which is
    /// process-wide). Throws a message for a socket that cannot be created.
    public init(configuration: Configuration, service: OrientationService, ready: Bool, diagnostics: Diagnostics) throws(DaemonError) {
        self.configuration = configuration
        self.diagnostics = diagnostics
        let shared: SharedService
        do {
            signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
            shared = try SharedService(service: service, ready: ready)
        } catch {
            throw DaemonError(status: .systemError, message: "cannot set up the control loop: \(error)")
        }
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        if let path = configuration.socketPath {
            do {
                listener = try UnixListener(path: path, mode: configuration.socketMode, group: configuration.socketGroup)
            } catch {
                throw DaemonError(status: .cannotCreate, message: error.description)
            }
        } else {
            listener = nil
        }
        hooks = HookRunner(commands: configuration.hooks, timeout: configuration.hookTimeout)
        self.shared = shared
        let streams = StandardStreams(readingCommands: configuration.commandsFromStandardInput)
        self.streams = streams
        subscribers = Subscribers(
            standard: Endpoint(
                name: "standard input", origin: "stdin", read: streams.input, write: 1, isSocket: false,
                blockingWrites: streams.blockingOutput, policy: configuration.standardOutputPolicy, subscribed: true),
            maximumClients: configuration.maximumClients, diagnostics: diagnostics,
            currentState: { shared.withService { ($0.pipeline.lastTime, $0.pipeline.current) } })
    }

    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
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
        if let interval = notifier.watchdogInterval {
            notifier.watchdog()
            nextWatchdog = Pacer.monotonicNow() + interval
        }
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
        var fds: [pollfd] = []
        var slots: [Slot] = []
        func watch(_ fd: Int32, _ events: Int32, _ slot: Slot) {
            fds.append(pollfd(fd: fd, events: Int16(events), revents: 0))
            slots.append(slot)
        }
        let output = subscribers.standard
        let holdingBack = output.policy == .backpressure && output.output.count >= OutboundBuffer.defaultLimit
        if !holdingBack { watch(shared.wake.descriptor, POLLIN, .wake) }
        watch(signals.descriptor, POLLIN, .signals)
        let ready = shared.isReady
        if ready, let listener { watch(listener.descriptor, POLLIN, .listener) }
        if ready, let fd = output.readDescriptor { watch(fd, POLLIN, .standardInput) }
        // A pipe's write end reports POLLERR when its reader closes it: watched even with
        // nothing to write, so a run whose consumer left stops at once (and the sensor with
        // it) instead of at its next event.
        if !output.blockingWrites && !output.isClosed { watch(1, output.wantsWriteReadiness ? POLLOUT : 0, .standardOutput) }
        for client in subscribers.clients {
            if ready, let fd = client.readDescriptor { watch(fd, POLLIN, .clientRead(client)) }
            if client.wantsWriteReadiness {
                watch(client.writeDescriptor, POLLOUT, .clientWrite(client))
            } else if client.isSocket, client.subscribed, client.readDescriptor == nil, !client.isClosed {
                // A subscriber that closed its sending side is no longer read, so its
                // leaving would be noticed only at the next write, and it would count as a
                // consumer (`ReadingDemand`) till then. POLLHUP, always reported, says
                // when it has gone altogether.
                watch(client.writeDescriptor, 0, .clientHangUp(client))
            }
        }
        for fd in hooks.descriptors { watch(fd, POLLIN, .hook) }
        var timeout: Int32 = -1
        if let deadline = [hooks.deadline, nextWatchdog].compactMap({ $0 }).min() {
            timeout = Int32(max(0, (deadline - Pacer.monotonicNow()) * 1000).rounded(.up))
        }
        let r = poll(&fds, nfds_t(fds.count), timeout)
        if r < 0 {
            if errno != EINTR { diagnostics.warning("poll: \(Errno(rawValue: errno))") }
            return
        }
        var wokeForEvents = false
        for (pfd, slot) in zip(fds, slots) where pfd.revents != 0 {
            switch slot {
            case .wake: wokeForEvents = true
            case .signals: handleSignals()
            case .listener: if let listener { subscribers.accept(from: listener) }
            case .standardInput: requests.read(from: output)
            case .standardOutput:
                if pfd.revents & Int16(POLLERR | POLLHUP) != 0 && output.output.isEmpty {
                    subscribers.standardOutputHungUp()
                } else {
                    subscribers.flush(output)
                }
            case .clientRead(let client): requests.read(from: client)
            case .clientWrite(let client): subscribers.flush(client)
            case .clientHangUp(let client):
                if pfd.revents & Int16(POLLHUP | POLLERR) != 0 { client.connection = .closed }
            case .hook: break
            }
        }
        if wokeForEvents {
            shared.wake.drain()
            broadcastOutbox()
        }
        reportHooks()
        if let due = nextWatchdog, let interval = notifier.watchdogInterval, Pacer.monotonicNow() >= due {
            notifier.watchdog()
            nextWatchdog = Pacer.monotonicNow() + interval
        }
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
        for number in signals.read() {
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
        notifier.send("RELOADING=1")
        defer { notifier.send("READY=1", "STATUS=\(statusLine())") }
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

    // MARK: Events out

    private func broadcastOutbox() {
        let items = shared.withService { $0.takeOutbox() }
        for item in items {
            switch item {
            case .orientation(let event):
                broadcast(event.jsonLine)
                notifier.status(statusLine())
                if event.screenChanged { hooks.schedule(event, now: Pacer.monotonicNow()) }
            case .lock(let event): broadcast(event.jsonLine)
            case .request(let event): broadcast(event.jsonLine)
            case .mode(let event): broadcast(event.jsonLine)
            case .suggestion(let event): broadcast(event.jsonLine)
            case .sensor(let event): broadcast(event.jsonLine)
            case .warning(let message): diagnostics.warning(message)
            case .note(let message): diagnostics.note(message)
            case .waiting(let description), .opened(let description):
                sourceStatus = description
                if notifiedReady {
                    notifier.status(statusLine())
                } else {
                    // READY=1 once the daemon serves: a sensor is open, the replay
                    // started, or (run --wait) the socket answers while it waits for a
                    // sensor. Holding it back for a sensor made `systemctl start` time
                    // out on a machine without one and restart forever.
                    notifier.ready(status: statusLine())
                    notifiedReady = true
                }
            }
        }
    }

    private func reportHooks() {
        guard let report = hooks.poll(now: Pacer.monotonicNow()) else { return }
        let screen = report.event.screenType.rawValue
        for result in report.results {
            if let failure = result.failure {
                diagnostics.warning("hook '\(result.command)' for \(screen): \(failure)")
            }
        }
        lastHookFailures = report.results.compactMap { result in result.failure.map { (result.command.text, $0) } }
        let time = shared.withService { $0.pipeline.lastTime }
        broadcast(HooksEvent(time: time, screen: screen, results: report.results).jsonLine)
    }

    private func broadcast(_ line: [UInt8]) { subscribers.broadcast(line) }

    // MARK: Status

    private func statusReply() -> [UInt8] {
        shared.withService { service in
            ControlReply.success("status") { json in
                ControlReply.addState(of: service, to: &json)
                ControlReply.addLayers(of: service, to: &json)
                json.add("natural", service.pipeline.natural.rawValue)
                json.add("time", service.pipeline.lastTime)
                json.add("source", service.source ?? sourceName)
                json.add("base", service.base)
                json.add("switches", strings: service.switches.devices)
                json.add("clients", subscribers.clients.count)
                json.add("subscribers", subscribers.subscriberCount)
                json.add("hooks", hooks.commands.count)
                json.add("hook-commands", strings: hooks.commands.map(\.text))
                json.add("hooks-failed", objects: lastHookFailures) { object, failed in
                    object.add("command", failed.command)
                    object.add("error", failed.error)
                }
                json.add("reading", service.isReading)
                json.add("consumers", strings: (demand?.consumers ?? []).map(\.rawValue))
                json.add("pace", service.readingRate?.pace.rawValue)
                if let hz = service.readingRate?.hz { json.add("rate", hz, decimals: 3) } else { json.addNull("rate") }
                json.add("socket", listener?.path)
                json.add("state", configuration.stateFile?.path)
                json.add("uptime", Pacer.monotonicNow() - started, decimals: 3)
                if let origin = sourceClockOrigin { json.add("origin", origin) } else { json.addNull("origin") }
                json.add("release", OrientdRelease.version)
                json.add("version", OrientationEvent.schemaVersion)
            }
        }
    }

    /// The STATUS= text: `systemctl status orientd` shows it.
    private func statusLine() -> String {
        let (current, policy) = shared.withService { ($0.pipeline.current, $0.pipeline.policy) }
        guard let current else { return "\(sourceStatus); no certain pose yet" }
        return
            "\(sourceStatus); screen \(current.screenType.rawValue), device \(policy.device.rawValue), \(policy.isLocked ? "locked" : "unlocked")"
    }

    // MARK: Ending

    /// Delivers what is left: the last events, the running hooks (a replay's end waits
    /// for them; a signal ends them), and what the readers have not read yet.
    private func finishUp() {
        let signalled = ending?.isSignal ?? false
        notifier.stopping(status: ending?.note ?? "stopping")
        broadcastOutbox()
        if signalled {
            hooks.killAll()
        } else {
            while !hooks.isIdle {
                var fds = hooks.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                let wait = max(0, ((hooks.deadline ?? Pacer.monotonicNow()) - Pacer.monotonicNow()) * 1000)
                _ = poll(&fds, nfds_t(fds.count), Int32(wait.rounded(.up)))
                reportHooks()
            }
        }
        // Standard output of a replay gets everything; sockets get what they take within
        // a moment.
        subscribers.drain(for: signalled ? 0.05 : 2)
        if let note = ending?.note { diagnostics.note(note) }
        diagnostics.summarise()
    }
}
