import Glibc
import OrientdIO
import SystemPackage

/// A connection to the daemon that lasts: requests answered in the order they were
/// sent, events handed to every subscriber, and, while something depends on the
/// connection (a held request, a subscriber), a new connection when the daemon restarts,
/// on which the request is made again and the subscription renewed.
///
/// Its own thread reads the socket, so no caller's task ever blocks in a read; callers
/// send under the lock (a request is a line, written at once into an idle socket) and
/// wait for their reply in a continuation that the thread resumes.
final class ControlSession: Sendable {
    let socket: String
    let replyTimeout: Double
    private let state: Guarded<State>
    /// Tells the thread that the state changed: a new connection, a request to time,
    /// a subscriber, the end.
    private let doorbell: WakeUp

    typealias Answer = CheckedContinuation<Result<ControlLine, OrientdClientError>, Never>
    typealias Subscriber = AsyncThrowingStream<ControlLine, any Error>.Continuation

    /// What the request this connection holds becomes when a reply says ok.
    enum HeldChange {
        case keep
        case hold(String)
        case release
    }

    struct Pending {
        var command: String
        var deadline: Double
        var onSuccess: HeldChange
        /// Nil for what the session sends itself on a new connection.
        var answer: Answer?
    }

    struct State {
        var client: ControlClient?
        var pending: [Pending] = []
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        /// The words of the request this client holds (`lock`), made again on each new
        /// connection, since a request ends with the connection that made it.
        var held: String?
        /// Whether `monitor` was sent on this connection.
        var monitoring = false
        /// The last orientation event on this connection: the current screen, which a
        /// subscriber who joins an already subscribed connection gets first.
        var lastOrientation: ControlLine?
        var readerStarted = false
        var reconnect = ReconnectSchedule()
        var closed = false
    }

    /// Throws only when no eventfd can be made (out of descriptors).
    init(socket: String, replyTimeout: Double) throws(Errno) {
        self.socket = socket
        self.replyTimeout = replyTimeout
        state = Guarded(State())
        doorbell = try WakeUp()
    }

    // MARK: Callers

    /// Sends `command` and waits for its reply; a refusal is thrown.
    func exchange(_ command: String, onSuccess: HeldChange = .keep) async throws(OrientdClientError) -> ControlLine {
        let result = await withCheckedContinuation { (answer: Answer) in
            let failure = state.withLock { s -> OrientdClientError? in
                if s.closed { return .closed }
                if let failure = connect(&s) { return failure }
                return send(command, onSuccess: onSuccess, answer: answer, in: &s)
            }
            if let failure { answer.resume(returning: .failure(failure)) } else { doorbell.signal() }
        }
        let line = try result.get()
        guard line.ok else { throw .refused(command: line.reply ?? command, message: line.error ?? "no reason given") }
        return line
    }

    /// Every event from now on, starting with the current orientation. The stream ends
    /// with an error only for what waiting cannot mend (permission denied, closed, no
    /// thread to read with).
    /// `buffered`: how many events wait for a subscriber that does not read; beyond that
    /// the oldest are dropped, so one that stops reading costs bounded memory.
    func subscribe(buffered: Int) -> AsyncThrowingStream<ControlLine, any Error> {
        let (stream, subscriber) = AsyncThrowingStream.makeStream(
            of: ControlLine.self, bufferingPolicy: .bufferingNewest(buffered))
        let failure = state.withLock { s -> OrientdClientError? in
            if s.closed { return .closed }
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            s.subscribers[id] = subscriber
            subscriber.onTermination = { [self] _ in state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
            if s.client == nil {
                // Nobody answering is waited out by the thread; a refusal is final.
                if case .permissionDenied? = connect(&s) {
                    s.subscribers[id] = nil
                    return .permissionDenied(socket: socket)
                }
            } else if s.monitoring, let last = s.lastOrientation {
                subscriber.yield(last)
            } else {
                _ = subscribeConnection(&s)
            }
            if let failure = startReader(&s) {
                s.subscribers[id] = nil
                return failure
            }
            return nil
        }
        // Outside the lock: finishing runs onTermination, which takes it.
        if let failure { subscriber.finish(throwing: failure) } else { doorbell.signal() }
        return stream
    }

    /// Ends the connection, every wait for a reply and every subscription.
    func close() {
        let subscribers = state.withLock { s -> [Subscriber] in
            s.closed = true
            disconnect(&s, because: .closed)
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        subscribers.forEach { $0.finish() }
        doorbell.signal()
    }

    // MARK: The connection (all under the lock)

    /// Connects unless connected, and restores on the new connection what the client
    /// had on the old one.
    private func connect(_ s: inout State) -> OrientdClientError? {
        guard s.client == nil else { return nil }
        do {
            s.client = try ControlClient(path: socket)
        } catch {
            return error
        }
        s.reconnect.reset()
        if let failure = startReader(&s) {
            disconnect(&s, because: failure)
            return failure
        }
        if let held = s.held, let failure = send("request \(held)", onSuccess: .hold(held), in: &s) { return failure }
        return s.subscribers.isEmpty ? nil : subscribeConnection(&s)
    }

    /// Sends `monitor` unless this connection has: the daemon then sends the current
    /// orientation, and every event after it.
    private func subscribeConnection(_ s: inout State) -> OrientdClientError? {
        guard !s.monitoring else { return nil }
        s.monitoring = true
        return send("monitor", in: &s)
    }

    private func send(_ command: String, onSuccess: HeldChange = .keep, answer: Answer? = nil, in s: inout State)
        -> OrientdClientError?
    {
        guard let client = s.client else { return .connectionLost(socket: socket) }
        do {
            try client.send(command)
        } catch {
            let failure = OrientdClientError(on: socket, error)
            disconnect(&s, because: failure)
            return failure
        }
        s.pending.append(Pending(command: command, deadline: Self.now + replyTimeout, onSuccess: onSuccess, answer: answer))
        return nil
    }

    private func disconnect(_ s: inout State, because failure: OrientdClientError) {
        s.client = nil
        s.monitoring = false
        s.lastOrientation = nil
        let waiting = s.pending
        s.pending = []
        for pending in waiting { pending.answer?.resume(returning: .failure(failure)) }
    }

    // MARK: The reading thread

    /// Starts the reading thread unless it runs; a failure leaves it to the next call.
    private func startReader(_ s: inout State) -> OrientdClientError? {
        guard !s.readerStarted else { return nil }
        do {
            try BackgroundThread.start(name: "orientd-client") { [self] in readLoop() }
        } catch {
            return .failed(socket: socket, message: "cannot start the client's reading thread: \(error)")
        }
        s.readerStarted = true
        return nil
    }

    private enum Step {
        case stop
        case wait(seconds: Double)
        case read(descriptor: FileDescriptor, seconds: Double?)
        case end([Subscriber], OrientdClientError)
    }

    /// What woke the reading thread from its poll.
    private enum ReaderWake { case daemon, doorbell }

    private func readLoop() {
        while true {
            switch nextStep() {
            case .stop:
                return
            case .wait(let seconds):
                _ = doorbell.wait(seconds: seconds)
                doorbell.drain()
            case .read(let descriptor, let seconds):
                var watched = PollSet<ReaderWake>()
                watched.watch(descriptor, for: .readable, as: .daemon)
                watched.watch(doorbell.descriptor, for: .readable, as: .doorbell)
                let ready = (try? watched.wait(timeout: seconds)) ?? []
                if ready.contains(where: { $0.slot == .doorbell }) { doorbell.drain() }
                state.withLock { readLines(&$0) }
            case .end(let subscribers, let failure):
                subscribers.forEach { $0.finish(throwing: failure) }
            }
        }
    }

    private func nextStep() -> Step {
        state.withLock { s in
            if s.closed {
                s.readerStarted = false
                return .stop
            }
            if let client = s.client {
                return .read(descriptor: client.descriptor, seconds: s.pending.first.map { max(0, $0.deadline - Self.now) })
            }
            // Nothing depends on a connection: wait until a caller makes one.
            guard s.held != nil || !s.subscribers.isEmpty else { return .wait(seconds: .infinity) }
            switch connect(&s) {
            case nil:
                return .wait(seconds: 0)
            case .permissionDenied?:
                let subscribers = Array(s.subscribers.values)
                s.subscribers = [:]
                s.held = nil
                return .end(subscribers, .permissionDenied(socket: socket))
            default:
                return .wait(seconds: s.reconnect.nextDelay())
            }
        }
    }

    private func readLines(_ s: inout State) {
        guard let client = s.client else { return }
        do {
            guard let lines = try client.availableLines() else {
                disconnect(&s, because: .connectionLost(socket: socket))
                return
            }
            for bytes in lines {
                guard let line = ControlLine(line: bytes) else {
                    disconnect(&s, because: .invalidReply(socket: socket, line: String(decoding: bytes, as: UTF8.self)))
                    return
                }
                if line.reply != nil {
                    // A reply nobody waits for (the daemon's "error" before it closes a
                    // connection) is passed over.
                    guard !s.pending.isEmpty else { continue }
                    answered(s.pending.removeFirst(), by: line, in: &s)
                } else {
                    if line.event == "orientation" { s.lastOrientation = line }
                    for subscriber in s.subscribers.values { subscriber.yield(line) }
                }
            }
        } catch {
            disconnect(&s, because: OrientdClientError(on: socket, error))
            return
        }
        if let first = s.pending.first, first.deadline <= Self.now {
            disconnect(&s, because: .noReply(socket: socket, command: first.command, seconds: replyTimeout))
        }
    }

    private func answered(_ pending: Pending, by line: ControlLine, in s: inout State) {
        switch (line.ok, pending.onSuccess) {
        case (true, .hold(let words)): s.held = words
        case (true, .release): s.held = nil
        // A request made again on a new connection and refused there (the daemon's
        // configuration changed) is no longer held.
        case (false, .hold) where pending.answer == nil: s.held = nil
        default: break
        }
        pending.answer?.resume(returning: .success(line))
    }

    private static var now: Double { MonotonicClock.now }
}
