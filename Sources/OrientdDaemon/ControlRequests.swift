import OrientdCore
import OrientdIO

/// The daemon's side of the control protocol: reads requests from an endpoint a line at
/// a time, refuses what is not a request (and stops reading a connection that keeps
/// sending such), and answers each. A request that changes the state is applied to the
/// service, its events are delivered before the reply, and the saved lock follows it.
final class ControlRequests {
    private let shared: SharedService
    private let subscribers: Subscribers
    private let stateFile: StateFile?
    private let diagnostics: Diagnostics
    /// Delivers what a request made the service emit: events, and the hooks they start.
    private let deliverOutbox: () -> Void
    /// The reply to `status`, which reports on the whole daemon.
    private let statusReply: () -> [UInt8]
    /// The connections that made a request: it lasts while they are read.
    private var holders: [ObjectIdentifier: Endpoint] = [:]

    init(
        shared: SharedService, subscribers: Subscribers, stateFile: StateFile?, diagnostics: Diagnostics,
        deliverOutbox: @escaping () -> Void, statusReply: @escaping () -> [UInt8]
    ) {
        self.shared = shared
        self.subscribers = subscribers
        self.stateFile = stateFile
        self.diagnostics = diagnostics
        self.deliverOutbox = deliverOutbox
        self.statusReply = statusReply
    }

    /// Reads what the endpoint sent and answers every whole line.
    func read(from endpoint: Endpoint) {
        guard let bytes = endpoint.receive() else {
            // End of input. A half-written request is refused, never guessed at.
            if endpoint.framer.hasPartialLine {
                reply(
                    ControlReply.failure(command: "error", message: "incomplete request at end of input (no newline); ignored"),
                    to: endpoint)
            }
            endpoint.stopReading(keepingSubscription: true)
            return
        }
        for item in endpoint.framer.append(bytes) {
            switch item {
            case .line(let text):
                do {
                    guard let command = try ControlCommand.parse(text, natural: shared.withService { $0.pipeline.natural }) else {
                        continue
                    }
                    endpoint.consecutiveBadRequests = 0
                    execute(command, for: endpoint)
                } catch {
                    refuse(ControlReply.failure(error), to: endpoint)
                }
            case .invalid(let reason):
                refuse(ControlReply.failure(command: "error", message: reason), to: endpoint)
            case .tooLong:
                reply(
                    ControlReply.failure(
                        command: "error",
                        message: "request longer than \(endpoint.framer.limit) bytes; closing"),
                    to: endpoint)
                stopReading(endpoint, why: "sent a request longer than \(endpoint.framer.limit) bytes")
            }
            if endpoint.readDescriptor == nil { break }
        }
    }

    private func refuse(_ line: [UInt8], to endpoint: Endpoint) {
        reply(line, to: endpoint)
        endpoint.consecutiveBadRequests += 1
        if endpoint.consecutiveBadRequests >= 16 {
            reply(ControlReply.failure(command: "error", message: "16 bad requests in a row; closing"), to: endpoint)
            stopReading(endpoint, why: "sent 16 bad requests in a row")
        }
    }

    private func stopReading(_ endpoint: Endpoint, why: String) {
        diagnostics.warning("\(endpoint.name) \(why); no longer reading it")
        endpoint.stopReading()
    }

    private func reply(_ line: [UInt8], to endpoint: Endpoint) { subscribers.send(line, to: endpoint) }

    private func execute(_ command: ControlCommand, for endpoint: Endpoint) {
        switch command {
        case .service(let request):
            let execution = shared.withService {
                $0.execute(request, by: Requester(connection: endpoint.name, kind: endpoint.origin))
            }
            if case .request = request { holders[ObjectIdentifier(endpoint)] = endpoint }
            deliverOutbox()
            var replyLine = execution.reply
            if execution.lockChanged, let failure = persistLock() {
                replyLine = ControlReply.success(command.name) { json in
                    shared.withService { ControlReply.addState(of: $0, to: &json) }
                    json.add("warning", failure)
                }
            }
            reply(replyLine, to: endpoint)
        case .daemon(.status):
            reply(statusReply(), to: endpoint)
        case .daemon(.monitor):
            reply(ControlReply.success("monitor"), to: endpoint)
            if !endpoint.subscribed {
                endpoint.subscribed = true
                let (current, offer) = shared.withService { ($0.pipeline.current, $0.pipeline.standingSuggestion) }
                if let current { subscribers.send(current.jsonLine, to: endpoint) }
                // A notification hook started after the offer still shows it.
                if let offer { subscribers.send(offer.jsonLine, to: endpoint) }
            }
        case .daemon(.help):
            reply(ControlReply.success("help") { $0.add("commands", strings: ControlReply.helpLines) }, to: endpoint)
        case .daemon(.quit):
            reply(ControlReply.success("quit"), to: endpoint)
            endpoint.stopReading()
        }
    }

    /// Ends the requests of connections that are no longer read (closed, at end of
    /// input, after `quit`, or refused): a client that exits or crashes releases its
    /// request. Called once per turn of the loop; the holders are few.
    func releaseDeparted() {
        let departed = holders.values.filter { $0.readDescriptor == nil || $0.isClosed }
        guard !departed.isEmpty else { return }
        for endpoint in departed {
            holders[ObjectIdentifier(endpoint)] = nil
            shared.withService { $0.releaseRequest(of: endpoint.name) }
        }
        deliverOutbox()
    }

    /// Saves the lock; returns a warning when it could not be saved.
    private func persistLock() -> String? {
        guard let file = stateFile else { return nil }
        let lock = shared.withService { $0.pipeline.policy.lock }
        do {
            try file.save(PersistedState(lock: lock))
            return nil
        } catch {
            let message = "the lock applies but was not saved to \(file.path): \(error)"
            diagnostics.warning(message)
            return message
        }
    }
}
