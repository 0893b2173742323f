import Glibc
import OrientdCore
import OrientdIO

/// Everyone the daemon writes to: standard output and the socket clients. Delivers each
/// line under the reader's `Endpoint.OverflowPolicy`, so that a reader that stops reading
/// costs only itself, and notices when standard output's reader has gone.
final class Subscribers {
    /// Standard input and output.
    let standard: Endpoint
    private(set) var clients: [Endpoint] = []
    private var clientSerial = 0
    private let maximumClients: Int
    private let diagnostics: Diagnostics
    /// What a reader that caught up after an overflow is told: the time and the last
    /// orientation.
    private let currentState: () -> (time: Double, current: OrientationEvent?)
    /// Set once standard output's reader has left, or writing to it failed.
    private(set) var standardOutputEnding: Daemon.Ending?

    init(
        standard: Endpoint, maximumClients: Int, diagnostics: Diagnostics,
        currentState: @escaping () -> (time: Double, current: OrientationEvent?)
    ) {
        self.standard = standard
        self.maximumClients = maximumClients
        self.diagnostics = diagnostics
        self.currentState = currentState
    }

    var subscriberCount: Int { clients.filter(\.subscribed).count }

    /// Sends a line to every subscriber.
    func broadcast(_ line: [UInt8]) {
        send(line, to: standard)
        for client in clients where client.subscribed && !client.isClosed {
            send(line, to: client)
        }
    }

    /// Queues a line (an event or a reply) and writes what the reader takes. A reply goes
    /// the way of events: a socket client that does not read is disconnected by the same
    /// bound, and on an output that is dropping the reply is counted in the `overflow`
    /// event that follows, with the state.
    func send(_ line: [UInt8], to endpoint: Endpoint) {
        if case .dropping(let bytes) = endpoint.delivery {
            endpoint.delivery = .dropping(bytes: bytes + line.count)
            return
        }
        if !endpoint.output.enqueue(line) {
            switch endpoint.policy {
            case .disconnect:
                diagnostics.warning("\(endpoint.name) stopped reading (\(endpoint.output.count) bytes waiting); disconnected")
                endpoint.connection = .closed
                return
            case .resync, .backpressure:
                endpoint.delivery = .dropping(bytes: endpoint.output.removeAll() + line.count)
                diagnostics.warning("\(endpoint.name) is not keeping up; events dropped until it reads again")
            }
        }
        flush(endpoint)
    }

    /// Writes what the reader takes now.
    func flush(_ endpoint: Endpoint) {
        switch endpoint.flush() {
        case .ok:
            if endpoint.output.isEmpty, case .dropping(let dropped) = endpoint.delivery {
                // Caught up after an overflow: say so, and give the current state.
                let (time, current) = currentState()
                endpoint.delivery = .inStep
                _ = endpoint.output.enqueue(OverflowEvent(time: time, droppedBytes: dropped).jsonLine)
                if let current { _ = endpoint.output.enqueue(current.jsonLine) }
                _ = endpoint.flush()
            }
        case .gone:
            if endpoint === standard { standardOutputEnding = standardOutputEnding ?? .outputClosed }
            endpoint.connection = .closed
        case .failed(let error):
            if endpoint === standard {
                diagnostics.error("cannot write to standard output: \(error)")
                standardOutputEnding = standardOutputEnding ?? .outputFailed
            }
            endpoint.connection = .closed
        }
    }

    /// Standard output reported an error or hang-up with nothing queued: its reader left.
    func standardOutputHungUp() {
        standardOutputEnding = standardOutputEnding ?? .outputClosed
        standard.connection = .closed
    }

    /// Takes every connection waiting on the socket; past `maximumClients` a connection
    /// gets an error line and is closed.
    func accept(from listener: UnixListener) {
        while let fd = listener.accept() {
            clientSerial += 1
            let client = Endpoint(
                name: "client \(clientSerial)", origin: "socket", read: fd, write: fd, isSocket: true,
                blockingWrites: false, policy: .disconnect, subscribed: false)
            if clients.count >= maximumClients {
                _ = client.output.enqueue(
                    ControlReply.failure(command: "error", message: "too many clients (\(maximumClients)); try again later"))
                _ = client.flush()
                client.closeDescriptors()
                continue
            }
            clients.append(client)
        }
    }

    /// Lets go of the clients that are closed, or closing with nothing left to write.
    func removeFinished() {
        clients.removeAll { client in
            guard client.isFinished else { return false }
            client.closeDescriptors()
            return true
        }
    }

    /// Writes what is queued for at most `seconds`: standard output of a replay gets
    /// everything (it blocks for a reader that applies backpressure), the others what they
    /// take in that time. Then every client is closed.
    func drain(for seconds: Double) {
        let giveUp = MonotonicClock.now + seconds
        while MonotonicClock.now < giveUp {
            let pending = ([standard] + clients).filter { !$0.isClosed && !$0.output.isEmpty && !$0.blockingWrites }
            if pending.isEmpty { break }
            var writable = PollSet<Void>()
            for endpoint in pending { writable.watch(endpoint.writeDescriptor, for: .writable, as: ()) }
            _ = try? writable.wait(timeout: 0.05)
            pending.forEach { flush($0) }
        }
        if standard.policy == .backpressure && !standard.isClosed && !standard.output.isEmpty {
            // Every event of a replay reaches its reader, however slow.
            let fd = standard.writeDescriptor.rawValue
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            flush(standard)
        }
        clients.forEach { $0.closeDescriptors() }
        clients = []
    }
}
