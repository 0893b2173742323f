import Foundation
import OrientdTestSupport
import Testing

@testable import OrientdClient
@testable import OrientdIO

/// The Swift client library against the real daemon (the built binary replaying a still
/// portrait recording, with its socket): what an app calls, what it sees when the daemon
/// is missing, refuses, hangs, or restarts.
// No time limit: these tests await continuations that the client's own thread resumes,
// and in the full suite on two cores the tests that block their threads (the booted
// systemd, the live sensors) can hold every thread of the pool for minutes, so a limit
// would measure the other tests. The daemons replay slowly enough to outlast that.
@Suite("OrientdClient: ScreenOrientation against the daemon", .serialized)
struct ScreenOrientationClientTests {
    typealias SlowDaemon = ControlChannelTests.SlowDaemon
    static let speed = "0.05"

    /// A daemon whose 20 s of portrait last at least 400 s, once it has a pose (its first event).
    func settledDaemon() throws -> SlowDaemon {
        let slow = try SlowDaemon(speed: Self.speed, seconds: 20)
        #expect(try slow.client.request("monitor").contains(#""ok":true"#))
        var started = false
        while !started, let line = try slow.client.readLine(timeout: TestTime.wait(10)) {
            started = String(decoding: line, as: UTF8.self).contains(#""cause":"start""#)
        }
        #expect(started, "the daemon reported its first pose")
        return slow
    }

    /// Another client's view of the daemon's requests layer: each request's orientations.
    func requests(on socket: String) throws -> [[String]] {
        let status = try ControlClient(path: socket).request("status")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
        let requests = try #require(object["requests"] as? [[String: Any]])
        return requests.map { $0["requested"] as? [String] ?? [] }
    }

    @Test("orientation(), lock and unlock as an app calls them; the lock is the app's request, held by its connection")
    func orientationLockUnlock() async throws {
        let slow = try settledDaemon()
        let screen = try ScreenOrientation(socket: slow.socket)
        #expect(try await screen.orientation() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        try await screen.lock(.landscape)
        #expect(try await screen.orientation() == ScreenOrientationResult(type: .landscapePrimary, angle: 90))
        #expect(try requests(on: slow.socket) == [["landscape-primary", "landscape-secondary"]])
        try await screen.unlock()
        #expect(try await screen.orientation() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        try await screen.lock(.landscapeSecondary)
        #expect(try await screen.orientation() == ScreenOrientationResult(type: .landscapeSecondary, angle: 270))
        // Closing ends the connection, and with it the app's lock, as an exit would.
        screen.close()
        let deadline = Date().addingTimeInterval(TestTime.wait(5))
        while try !requests(on: slow.socket).isEmpty, Date() < deadline { usleep(20_000) }
        #expect(try requests(on: slow.socket).isEmpty)
        await #expect(throws: OrientdClientError.closed) { try await screen.orientation() }
    }

    @Test("acceptSuggestion(): refused with nothing offered; after the offer the screen turns and the user's lock stays")
    func acceptSuggestion() async throws {
        let scratch = try Scratch()
        // Turned at 2 s, then 10 minutes still: the daemon must outlast minutes of a pool
        // held by other tests (see above; at 30 s it once ended first, and the client's
        // second subscriber waited for it for ever). The test ends it when done.
        let recording = try scratch.write("turn.csv", recordingThrough(angles: [0, 0] + Array(repeating: 90, count: 600)))
        let socket = temporarySocketPath()
        // A timeout past the recording's end: a loaded machine must not see the offer lapse.
        let daemon = try DaemonProcess([
            "replay", "--lock", "portrait-primary", "--suggestion-timeout", "900", "--socket", socket, recording,
        ])
        _ = try ControlClient.waitingFor(socket)
        let screen = try ScreenOrientation(socket: socket)
        await #expect(throws: OrientdClientError.self) { _ = try await screen.acceptSuggestion() }
        var offered = false
        for try await event in screen.events() where event.event == "suggestion" {
            offered = event.text.contains(#""state":"offered","screen":"landscape-primary""#)
            break
        }
        #expect(offered)
        // Told to a subscriber who comes after the offer, and in status.
        let later = try ScreenOrientation(socket: socket)
        var first: [String] = []
        for try await event in later.events() {
            first.append(event.text)
            if first.count == 2 { break }
        }
        #expect(first.first?.contains(#""event":"orientation""#) == true, "\(first)")
        #expect(
            first.last?.contains(#""event":"suggestion","time":"#) == true && first.last?.contains(#""state":"offered""#) == true,
            "\(first)")
        #expect(try await later.send("status").text.contains(#""suggestion":"landscape-primary""#))
        later.close()
        #expect(try await screen.acceptSuggestion() == ScreenOrientationResult(type: .landscapePrimary, angle: 90))
        let status = try await screen.send("status")
        #expect(status.text.contains(#""locked":true"#) && status.text.contains(#""lock":["landscape-primary"]"#), "\(status.text)")
        #expect(status.text.contains(#""suggestion":null"#), "accepted: no offer stands")
        screen.close()
        _ = daemon
    }

    @Test("changes() starts with where the screen is, then gives each change once; events() gives every event")
    func changesAndEvents() async throws {
        let slow = try settledDaemon()
        let screen = try ScreenOrientation(socket: slow.socket)
        let changes = screen.changes()
        let events = screen.events()
        var iterator = changes.makeAsyncIterator()
        #expect(try await iterator.next() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        try await screen.lock(.landscape)
        #expect(try await iterator.next() == ScreenOrientationResult(type: .landscapePrimary, angle: 90))
        try await screen.lock(.landscapePrimary)  // the same screen: no change to report
        try await screen.unlock()
        #expect(try await iterator.next() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        var names: [String] = []
        for try await event in events {
            names.append(event.event ?? "?")
            if names.filter({ $0 == "request" }).count == 3 { break }
        }
        #expect(names.first == "orientation")
        #expect(names.contains("request"))
    }

    @Test("the daemon's refusal is thrown with its reason; any command goes through send()")
    func refused() async throws {
        let slow = try settledDaemon()
        let screen = try ScreenOrientation(socket: slow.socket)
        do {
            _ = try await screen.send("lock sideways")
            Issue.record("a bad lock was accepted")
        } catch {
            guard case .refused(let command, let message) = error else {
                Issue.record("expected refused, got \(error)")
                return
            }
            #expect(command == "lock")
            #expect(message.contains("sideways"))
        }
        let status = try await screen.send("status")
        #expect(status.isSuccess && status.text.contains(#""release":"#))
    }

    @Test("no daemon, a socket nobody may use, a daemon that never answers: each its own error")
    func failures() async throws {
        let missing = try ScreenOrientation(socket: "/tmp/orientd-test-no-such-daemon.sock")
        await #expect(throws: OrientdClientError.noDaemon(socket: "/tmp/orientd-test-no-such-daemon.sock")) {
            try await missing.orientation()
        }
        // Root may connect to any socket, so EACCES is not reachable here as it is for a
        // user outside the socket's group: the mapping from the system's error is checked.
        let denied = UnixSocket.Failure(description: "denied", code: .permissionDenied)
        #expect(
            OrientdClientError(connecting: "/run/orientd/control.sock", denied) == .permissionDenied(socket: "/run/orientd/control.sock"))
        // A hung daemon: a listener that accepts (the kernel does, from its backlog) and
        // never reads. The wait ends with noReply, which only the client's own timer gives
        // (how soon is not measured: in the full suite the test may wait for a thread).
        let socket = temporarySocketPath()
        let listener = try UnixListener(path: socket)
        let hung = try ScreenOrientation(socket: socket, replyTimeout: 0.3)
        await #expect(throws: OrientdClientError.noReply(socket: socket, command: "orientation", seconds: 0.3)) {
            try await hung.orientation()
        }
        _ = listener
    }

    @Test("a restarted daemon is waited out: the lock is made again on it, and the changes go on")
    func reconnects() async throws {
        let first = try settledDaemon()
        let socket = first.socket
        let screen = try ScreenOrientation(socket: socket)
        let changes = screen.changes()
        var iterator = changes.makeAsyncIterator()
        #expect(try await iterator.next() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        try await screen.lock(.landscape)
        #expect(try await iterator.next() == ScreenOrientationResult(type: .landscapePrimary, angle: 90))

        first.daemon.signal(SIGTERM)
        #expect(first.daemon.waitForExit() == 0)
        await #expect(throws: OrientdClientError.noDaemon(socket: socket)) { try await screen.orientation() }

        let scratch = try Scratch()
        let recording = try scratch.write("still.csv", ControlChannelTests.portraitRecording(seconds: 20))
        let speed = try SlowDaemon.scaled(Self.speed)
        let second = try DaemonProcess(["replay", "--speed", speed, "--socket", socket, "--no-commands", recording])
        _ = try ControlClient.waitingFor(socket)
        let deadline = Date().addingTimeInterval(TestTime.wait(10))
        while try requests(on: socket).isEmpty, Date() < deadline { usleep(50_000) }
        #expect(try requests(on: socket) == [["landscape-primary", "landscape-secondary"]])
        #expect(try await screen.orientation() == ScreenOrientationResult(type: .landscapePrimary, angle: 90))
        try await screen.unlock()
        #expect(try await iterator.next() == ScreenOrientationResult(type: .portraitPrimary, angle: 0))
        _ = second
    }
}
