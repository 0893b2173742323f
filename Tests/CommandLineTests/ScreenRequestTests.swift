import Foundation
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdTestSupport
import Testing

/// Requests that belong to a connection, against the real binary over its socket: the
/// layer an app's view controller is on iOS, which ends with it (docs/layers.md, "Layers").
@Suite("Requests held by connections, stacked and against the lock", .serialized)
struct ScreenRequestTests {
    typealias SlowDaemon = ControlChannelTests.SlowDaemon

    /// Reads the subscriber's lines until one matches; nil after `timeout`.
    func next(_ monitor: ControlClient, timeout: Double = 10, _ match: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while case let left = deadline.timeIntervalSinceNow, left > 0 {
            guard let line = try? monitor.readLine(timeout: left) else { return nil }
            let text = String(decoding: line.dropLast(), as: UTF8.self)
            if match(text) { return text }
        }
        return nil
    }

    /// A daemon replaying a still portrait recording, and a subscriber that has seen its start.
    func started(_ extra: [String] = ["--no-commands"]) throws -> (SlowDaemon, ControlClient) {
        let slow = try SlowDaemon(extra: extra)
        let monitor = slow.client
        #expect(try monitor.request("monitor").contains(#""ok":true"#))
        #expect(try next(monitor) { $0.contains(#""cause":"start""#) } != nil)
        return (slow, monitor)
    }

    @Test("a request lasts as long as its connection: a client that goes away releases it")
    func releasedOnDisconnect() throws {
        let (slow, monitor) = try started()
        do {
            let holder = try ControlClient(path: slow.socket)
            let reply = try holder.request("request landscape")
            #expect(reply.hasPrefix(#"{"reply":"request","ok":true,"type":"landscape-primary","angle":90"#))
            let event = try next(monitor) { $0.contains(#""event":"request""#) }
            #expect(event?.contains(#""by":"client 2","requested":["landscape-primary","landscape-secondary"]"#) == true)
            #expect(try next(monitor) { $0.contains(#""event":"orientation""#) }?.contains(#""screen":"landscape-primary""#) == true)
            let status = try holder.request("status")
            #expect(status.contains(#""requests":[{"by":"client 2","requested":["landscape-primary","landscape-secondary"]}]"#))
            #expect(status.contains(#""decided":"request""#))
        }
        // The holder's socket is closed here, as a crashed client's is by the kernel.
        let released = try next(monitor) { $0.contains(#""event":"request""#) }
        #expect(released?.contains(#""by":"client 2","requested":null"#) == true)
        let back = try next(monitor) { $0.contains(#""event":"orientation""#) }
        #expect(back?.contains(#""screen":"portrait-primary""#) == true)
        #expect(back?.contains(#""cause":"release""#) == true)
    }

    @Test("requests stack: the newest is in force, its end uncovers the one below, release answers whether one was held")
    func stacked() throws {
        let (slow, monitor) = try started()
        let first = try ControlClient(path: slow.socket)
        _ = try first.request("request landscape")
        #expect(try next(monitor) { $0.contains(#""cause":"request""#) }?.contains(#""screen":"landscape-primary""#) == true)
        do {
            let second = try ControlClient(path: slow.socket)
            #expect(try second.request("request portrait-secondary").contains(#""type":"portrait-secondary""#))
            #expect(try next(monitor) { $0.contains(#""cause":"request""#) }?.contains(#""screen":"portrait-secondary""#) == true)
            let status = try second.request("status")
            #expect(status.contains(#""requests":[{"by":"client 3","requested":["portrait-secondary"]},{"by":"client 2""#))
        }
        #expect(try next(monitor) { $0.contains(#""cause":"release""#) }?.contains(#""screen":"landscape-primary""#) == true)
        #expect(try first.request("release").contains(#""released":true"#))
        #expect(try next(monitor) { $0.contains(#""cause":"release""#) }?.contains(#""screen":"portrait-primary""#) == true)
        #expect(try first.request("release").contains(#""released":false"#))
    }

    @Test("a request against the user's lock: the request wins while it lasts, the lock is back after")
    func againstUserLock() throws {
        let (slow, monitor) = try started()
        #expect(try slow.client.request("lock portrait").contains(#""locked":true"#))
        do {
            let holder = try ControlClient(path: slow.socket)
            let reply = try holder.request("request landscape")
            #expect(reply.contains(#""type":"landscape-primary""#))
            #expect(reply.contains(#""warning":"the request overrides the user's lock""#))
            #expect(try next(monitor) { $0.contains(#""cause":"request""#) }?.contains(#""locked":true"#) == true)
            let status = try holder.request("status")
            #expect(status.contains(#""lock":["portrait-primary","portrait-secondary"]"#))
            #expect(status.contains(#""overridden":["lock"],"decided":"request""#))
        }
        let back = try next(monitor) { $0.contains(#""cause":"release""#) }
        #expect(back?.contains(#""screen":"portrait-primary""#) == true)
        #expect(try slow.client.request("status").contains(#""overridden":[],"decided":"device""#))
    }

    @Test("a request against the configured set: the request wins (iOS 16) and says so; one that meets it is narrowed")
    func againstSupported() throws {
        let (slow, monitor) = try started(["--no-commands", "--supported", "portrait,landscape-primary"])
        let holder = try ControlClient(path: slow.socket)
        let narrowed = try holder.request("request landscape")
        #expect(narrowed.contains(#""allowed":["landscape-primary"]"#))
        #expect(!narrowed.contains("warning"))
        #expect(try next(monitor) { $0.contains(#""cause":"request""#) }?.contains(#""screen":"landscape-primary""#) == true)
        let disjoint = try holder.request("request landscape-secondary")
        #expect(disjoint.contains(#""type":"landscape-secondary""#))
        #expect(disjoint.contains(#""warning":"the request overrides the supported set""#))
        #expect(try next(monitor) { $0.contains(#""cause":"request""#) }?.contains(#""screen":"landscape-secondary""#) == true)
    }

    @Test("orientd ctl request holds the request while its program runs and exits with the program's status")
    func ctlRequestWithProgram() throws {
        let (slow, monitor) = try started()
        let scratch = try Scratch()
        let seen = scratch.directory.appendingPathComponent("status.json").path
        let result = try OrientdProcess.run([
            "ctl", "--socket", slow.socket, "request", "landscape", "--",
            "sh", "-c", "\"$0\" ctl --socket \"$1\" status > \"$2\"; exit 3", OrientdProcess.executable.path, slow.socket, seen,
        ])
        #expect(result.status == 3, "the program's status")
        #expect(result.stdout.hasPrefix(#"{"reply":"request","ok":true"#))
        let during = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(during.contains(#""decided":"request""#), "the request held while the program ran")
        #expect(try next(monitor) { $0.contains(#""cause":"release""#) }?.contains(#""screen":"portrait-primary""#) == true)

        let missing = try OrientdProcess.run(["ctl", "--socket", slow.socket, "request", "landscape", "--", "/nonexistent/player"])
        #expect(missing.status == 127)
        withKnownIssue(Comment(rawValue: Emulation.failedExecUnreported)) {
            #expect(missing.stderr.contains("/nonexistent/player"))
        } when: {
            Emulation.qemuUser
        }

        let misplaced = try OrientdProcess.run(["ctl", "--socket", slow.socket, "status", "--", "true"])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("runs only with request"))
    }

    @Test("orientd ctl request without a program holds until it is interrupted")
    func ctlRequestUntilInterrupted() throws {
        let (slow, monitor) = try started()
        let holder = try DaemonProcess(["ctl", "--socket", slow.socket, "request", "landscape"])
        #expect(holder.waitForLine { $0.hasPrefix(#"{"reply":"request","ok":true"#) } != nil)
        #expect(try next(monitor) { $0.contains(#""cause":"request""#) } != nil)
        usleep(200_000)
        #expect(try slow.client.request("status").contains(#""decided":"request""#), "still held")
        holder.signal(SIGINT)
        #expect(holder.waitForExit(timeout: 5) == 0)
        #expect(try next(monitor) { $0.contains(#""cause":"release""#) }?.contains(#""screen":"portrait-primary""#) == true)
    }

    @Test("mode: a command tells the mode when nothing better does; laptop mode holds the natural orientation")
    func modeCommand() throws {
        let (slow, monitor) = try started()
        // Asked on a connection of its own: the subscriber's replies would pass its events over.
        let commander = try ControlClient(path: slow.socket)
        let reply = try commander.request("mode laptop")
        #expect(reply.contains(#""mode":"laptop""#))
        #expect(
            try next(monitor) { $0.contains(#""event":"mode""#) }?.contains(#""mode":"laptop","source":"command","hinge":null"#) == true)
        #expect(try commander.request("status").contains(#""mode-source":"command","rotate-in":"tablet","overridden":[],"decided":"mode""#))
        #expect(try commander.request("mode sideways").contains(#""error":"mode: expected tablet, laptop or auto, got 'sideways'""#))
        _ = try commander.request("mode auto")
        #expect(try next(monitor) { $0.contains(#""event":"mode""#) }?.contains(#""mode":null,"source":null"#) == true)
    }
}
