import Foundation
import OrientdCore
import Testing

extension LiveSensorTests {
    @Test("run takes its defaults from a configuration file; SIGHUP reloads it and keeps the lock and the subscribers")
    func configurationReload() throws {
        let bed = Testbed()
        // The device lies in the landscape-left pose.
        try bed.add(FakeAccelerometer.polled(raw: (-1024, 0, 60)))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("orientd.conf").path
        let socket = "/tmp/orientd-live-\(UUID().uuidString.prefix(8)).sock"
        try "# portrait only\nsupported = portrait\nhold-time = 0.05\n".write(toFile: config, atomically: true, encoding: .utf8)

        let daemon = try LiveDaemon(["run", "--config", config, "--socket", socket, "--no-state", "--no-commands"])
        defer { daemon.stop() }
        let client = try LiveClient(path: socket)
        #expect(
            daemon.waitFor { $0.contains(#""cause":"start""#) && $0.contains(#""screen":"portrait-primary""#) },
            "the file's supported set keeps the screen in portrait: \(daemon.output)")
        #expect(client.request("lock all-but-upside-down").contains(#""ok":true"#))
        #expect(client.request("monitor").contains(#""ok":true"#))

        // A broken file: nothing changes, the daemon says why and goes on.
        try "supported = sideways\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForError("keeping the running configuration"))
        #expect(daemon.standardError.contains("\(config):1: supported:"))

        try "supported = all\nrate = 20\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(
            daemon.waitFor { $0.contains(#""cause":"configuration""#) && $0.contains(#""screen":"landscape-primary""#) },
            "the screen follows the pose once landscape is supported: \(daemon.output)")
        #expect(daemon.waitForError("rate changed; it takes effect at the next start"))
        let seen = client.lines(for: 0.5)
        #expect(
            seen.contains { $0.contains(#""cause":"configuration""#) && $0.contains(#""locked":true"#) },
            "the subscriber is still there, and the lock too: \(seen)")
        #expect(
            client.request("status").contains(#""locked":true,"allowed":["portrait-primary","landscape-primary","landscape-secondary"]"#))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}

/// `orientd run` in the background, its output collected as it comes.
final class LiveDaemon: @unchecked Sendable {
    // @unchecked: `collected` and `errors` are only touched with `lock` held.
    private let process = Process()
    private let lock = NSLock()
    private var collected = ""
    private var errors = ""

    init(_ arguments: [String]) throws {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("orientd").path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        process.executableURL = dir.appendingPathComponent("orientd")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.lock.withLock { self?.collected += text }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.lock.withLock { self?.errors += text }
        }
        try process.run()
    }

    var output: String { lock.withLock { collected } }
    var pid: Int32 { process.processIdentifier }
    var standardError: String { lock.withLock { errors } }

    func waitFor(seconds: Double = 10, _ match: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.split(separator: "\n").contains(where: { match(String($0)) }) { return true }
            usleep(20_000)
        }
        return false
    }

    func waitForError(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if standardError.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    func waitForExit(seconds: Double = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A line-oriented client of the control socket.
final class LiveClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(path: String, timeout: Double = 10) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if r == 0 { return }
            if Date() > deadline { throw POSIXError(.ECONNREFUSED) }
            usleep(20_000)
        }
    }

    deinit { close(descriptor) }

    /// Lines that arrive within `seconds`.
    func lines(for seconds: Double) -> [String] {
        var out: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = nextLine(timeout: deadline.timeIntervalSinceNow) { out.append(line) }
        }
        return out
    }

    /// Sends a request; its reply (events before it are skipped).
    func request(_ line: String) -> String {
        _ = (line + "\n").withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        while let reply = nextLine(timeout: 5) {
            if reply.hasPrefix(#"{"reply""#) { return reply }
        }
        return ""
    }

    private func nextLine(timeout: Double) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(max(1, timeout * 1000))) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(descriptor, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }
}

extension LiveSensorTests {
    @Test("the sensor vanishing and returning 100 times: every loss and return reported, no growth in descriptors, threads or memory")
    func hundredHotPlugs() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100)))
        let socket = "/tmp/orientd-live-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try LiveDaemon(["run", "--wait", "--no-config", "--no-state", "--no-commands", "--socket", socket])
        defer { daemon.stop() }
        let client = try LiveClient(path: socket)
        _ = client.request("monitor")

        func count(_ state: String) -> Int {
            daemon.output.split(separator: "\n").filter { $0.contains(#""state":"\#(state)""#) }.count
        }
        func resources() -> (fds: Int, threads: Int, rss: Int) {
            let pid = daemon.pid
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let rss =
                status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
                .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
            return (fds, threads, rss)
        }

        #expect(daemon.waitFor { $0.contains(#""state":"attached""#) })
        var baseline: (fds: Int, threads: Int, rss: Int)?
        for cycle in 1...100 {
            bed.uevent(FakeAccelerometer.syspath(), "remove")
            bed.remove(FakeAccelerometer.syspath())
            let lostBy = Date().addingTimeInterval(5)
            while count("lost") < cycle, Date() < lostBy { usleep(5_000) }
            try #require(count("lost") == cycle, "cycle \(cycle): no lost event")
            try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100), withParent: false))
            bed.uevent(FakeAccelerometer.syspath(), "add")
            let backBy = Date().addingTimeInterval(5)
            while count("attached") < cycle + 1, Date() < backBy { usleep(5_000) }
            try #require(count("attached") == cycle + 1, "cycle \(cycle): no attached event")
            if cycle == 10 { baseline = resources() }
        }
        let end = resources()
        let start = try #require(baseline)
        #expect(start.fds > 3 && start.threads >= 2 && start.rss > 0, "the figures were read: \(start)")
        print(
            "hot-plug ×100: descriptors \(start.fds) → \(end.fds), threads \(start.threads) → \(end.threads), resident \(start.rss) → \(end.rss) KiB"
        )
        #expect(end.fds == start.fds, "descriptors: \(start.fds) after 10 cycles, \(end.fds) after 100")
        #expect(end.threads == start.threads, "threads: \(start.threads) → \(end.threads)")
        #expect(end.rss - start.rss < 1024, "resident: \(start.rss) KiB → \(end.rss) KiB")
        #expect(client.request("status").contains(#""subscribers":1"#), "the subscriber stayed through it all")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
