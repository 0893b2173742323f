import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// What leaves the daemon: the service's events to the subscribers and hooks, the status
/// reply, and the last steps of a run.
extension Daemon {
    // MARK: Events out

    func broadcastOutbox() {
        let items = shared.withService { $0.takeOutbox() }
        for item in items {
            switch item {
            case .orientation(let event):
                broadcast(event.jsonLine)
                notifications.orientationChanged()
                if !startMemoryReturned && configuration.returnsStartMemory {
                    startMemoryReturned = true
                    process.returnStartMemory()
                }
                if event.screenChanged { hooks.schedule(event, now: MonotonicClock.now) }
            case .lock(let event): broadcast(event.jsonLine)
            case .request(let event): broadcast(event.jsonLine)
            case .mode(let event): broadcast(event.jsonLine)
            case .suggestion(let event): broadcast(event.jsonLine)
            case .sensor(let event): broadcast(event.jsonLine)
            case .warning(let message): diagnostics.warning(message)
            case .note(let message): diagnostics.note(message)
            case .waiting(let description), .opened(let description): notifications.sourceChanged(description)
            }
        }
    }

    func reportHooks() {
        guard let report = hooks.poll(now: MonotonicClock.now) else { return }
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

    func broadcast(_ line: [UInt8]) { subscribers.broadcast(line) }

    // MARK: Status

    func statusReply() -> [UInt8] {
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
                if let trouble = service.sensorTrouble {
                    // Now on the events' clock: the last reading's time stands still while
                    // a sensor is silent.
                    let now = sourceClockOrigin.map { MonotonicClock.now - $0 } ?? service.pipeline.lastTime
                    json.add("sensor-trouble") { trouble.add(to: &$0, now: now) }
                } else {
                    json.addNull("sensor-trouble")
                }
                json.add("socket", process.listener?.path)
                json.add("state", configuration.stateFile?.path)
                json.add("uptime", MonotonicClock.now - started, decimals: 3)
                if let origin = sourceClockOrigin { json.add("origin", origin) } else { json.addNull("origin") }
                json.add("release", OrientdRelease.version)
                json.add("version", OrientationEvent.schemaVersion)
            }
        }
    }

    // MARK: Ending

    /// Delivers what is left: the last events, the running hooks (a replay's end waits
    /// for them; a signal ends them), and what the readers have not read yet.
    func finishUp() {
        let signalled = ending?.isSignal ?? false
        notifications.stopping(ending?.note ?? "stopping")
        broadcastOutbox()
        if signalled {
            hooks.killAll()
        } else {
            while !hooks.isIdle {
                var running = PollSet<Void>()
                for fd in hooks.descriptors { running.watch(fd, for: .readable, as: ()) }
                _ = try? running.wait(timeout: (hooks.deadline ?? MonotonicClock.now) - MonotonicClock.now)
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
