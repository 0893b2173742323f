import OrientdIO

/// orientd for a Swift program, in the shape the platforms give apps (Capacitor's
/// ScreenOrientation plugin, the W3C `screen.orientation`): where the screen is, a lock
/// the app holds while it needs it, and the changes as they happen.
///
///     let screen = try ScreenOrientation()
///     print(try await screen.orientation())          // landscape-primary (90°)
///     try await screen.lock(.landscape)              // held until unlock() or the end
///     for try await orientation in screen.changes() { … }
///
/// An app's lock is a request in orientd's layers (docs/layers.md, "Layers"): it beats the
/// user's rotation lock, as on iOS, and ends when the app unlocks, closes this object
/// or exits. While the app holds a lock or follows the changes, a restart of the daemon
/// is waited out: the lock is made again and the changes go on.
public final class ScreenOrientation: Sendable {
    private let session: ControlSession

    /// The daemon's socket: `socket`, else `$ORIENTD_SOCKET`, else the system service's
    /// (/run/orientd/control.sock). Nothing is connected until the first call.
    /// `replyTimeout`: how long a request waits for its answer, in seconds.
    public init(socket: String? = nil, replyTimeout: Double = 10) throws(OrientdClientError) {
        let path = socket ?? ControlSocket.clientDefault
        do {
            session = try ControlSession(socket: path, replyTimeout: replyTimeout)
        } catch {
            throw .failed(socket: path, message: "cannot make an eventfd: \(error)")
        }
    }

    deinit { session.close() }

    public var socket: String { session.socket }

    /// Where the screen is now.
    public func orientation() async throws(OrientdClientError) -> ScreenOrientationResult {
        let reply = try await session.exchange("orientation")
        guard let orientation = reply.orientation else { throw .invalidReply(socket: socket, line: reply.text) }
        return orientation
    }

    /// Keeps the screen to `type` until `unlock()`, `close()` or the end of the program.
    /// A second lock replaces the first.
    public func lock(_ type: OrientationLockType) async throws(OrientdClientError) {
        _ = try await session.exchange("request \(type.rawValue)", onSuccess: .hold(type.rawValue))
    }

    /// Gives the screen back to the user's lock and the sensor.
    public func unlock() async throws(OrientdClientError) {
        _ = try await session.exchange("release", onSuccess: .release)
    }

    /// Takes the rotation orientd suggests while the user's rotation lock holds the
    /// screen and the device is turned (a `suggestion` event in `events()`): the screen
    /// turns there and the user's lock stays on, at the new orientation, as Android's
    /// rotate button does. Where the screen is now; `.refused` when nothing is offered.
    public func acceptSuggestion() async throws(OrientdClientError) -> ScreenOrientationResult {
        let reply = try await session.exchange("accept")
        guard let orientation = reply.orientation else { throw .invalidReply(socket: socket, line: reply.text) }
        return orientation
    }

    /// How many events `events()` keeps for a consumer that does not read: beyond it the
    /// oldest are dropped, so memory stays bounded whatever the consumer does.
    public static let bufferedEvents = 256

    /// The screen's orientation now (once the daemon knows it), then each time it
    /// changes. A state, not a log: a consumer that reads late gets the newest
    /// orientation, not the ones it missed (only the newest is kept).
    public func changes() -> OrientdUpdates<ScreenOrientationResult> {
        let events = session.subscribe(buffered: Self.bufferedEvents)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ScreenOrientationResult.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            var last: ScreenOrientationResult?
            do {
                for try await event in events {
                    guard event.event == "orientation", let orientation = event.orientation, orientation != last else { continue }
                    last = orientation
                    continuation.yield(orientation)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return OrientdUpdates(stream: stream)
    }

    /// Every event the daemon emits (docs/events.md, "Events"), starting with the current
    /// orientation: lock, request, mode, suggestion, sensor and hooks events as well. A
    /// consumer that does not read keeps the newest `bufferedEvents`; older ones are
    /// dropped.
    public func events() -> OrientdUpdates<ControlLine> {
        OrientdUpdates(stream: session.subscribe(buffered: Self.bufferedEvents))
    }

    /// Any control command (docs/control.md, "Control"), e.g. `status` or `mode tablet`; the
    /// reply, or `.refused` with the daemon's reason.
    public func send(_ command: String) async throws(OrientdClientError) -> ControlLine {
        try await session.exchange(command)
    }

    /// Ends the connection: a held lock ends, every sequence ends.
    public func close() { session.close() }
}
