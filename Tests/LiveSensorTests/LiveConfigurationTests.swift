import Foundation
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdTestSupport
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

        let daemon = try DaemonProcess(["run", "--config", config, "--socket", socket, "--no-state", "--no-commands"])
        let client = try ControlClient.waitingFor(socket)
        #expect(
            daemon.waitForLine { $0.contains(#""cause":"start""#) && $0.contains(#""screen":"portrait-primary""#) } != nil,
            "the file's supported set keeps the screen in portrait: \(daemon.output)")
        #expect(try client.request("lock all-but-upside-down").contains(#""ok":true"#))
        #expect(try client.request("monitor").contains(#""ok":true"#))

        // A broken file: nothing changes, the daemon says why and goes on.
        try "supported = sideways\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForError("keeping the running configuration"))
        #expect(daemon.standardError.contains("\(config):1: supported:"))

        try "supported = all\nrate = 20\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(
            daemon.waitForLine { $0.contains(#""cause":"configuration""#) && $0.contains(#""screen":"landscape-primary""#) } != nil,
            "the screen follows the pose once landscape is supported: \(daemon.output)")
        #expect(daemon.waitForError("rate changed; it takes effect at the next start"))
        let seen = try client.lines(for: 0.5)
        #expect(
            seen.contains { $0.contains(#""cause":"configuration""#) && $0.contains(#""locked":true"#) },
            "the subscriber is still there, and the lock too: \(seen)")
        #expect(
            try client.request("status").contains(
                #""locked":true,"allowed":["portrait-primary","landscape-primary","landscape-secondary"]"#))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}

extension LiveSensorTests {
    @Test("the sensor vanishing and returning 100 times: every loss and return reported, no growth in descriptors, threads or memory")
    func hundredHotPlugs() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100)))
        let socket = "/tmp/orientd-live-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try DaemonProcess(["run", "--wait", "--no-config", "--no-state", "--no-commands", "--socket", socket])
        let client = try ControlClient.waitingFor(socket)
        _ = try client.request("monitor")

        func count(_ state: String) -> Int {
            daemon.output.filter { $0.contains(#""state":"\#(state)""#) }.count
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

        #expect(daemon.waitForLine { $0.contains(#""state":"attached""#) } != nil)
        var baseline: (fds: Int, threads: Int, rss: Int)?
        for cycle in 1...100 {
            bed.uevent(FakeAccelerometer.syspath(), "remove")
            bed.remove(FakeAccelerometer.syspath())
            let lostBy = Date().addingTimeInterval(TestTime.wait(5))
            while count("lost") < cycle, Date() < lostBy { usleep(5_000) }
            try #require(count("lost") == cycle, "cycle \(cycle): no lost event")
            try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100), withParent: false))
            bed.uevent(FakeAccelerometer.syspath(), "add")
            let backBy = Date().addingTimeInterval(TestTime.wait(5))
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
        if Sanitizer.name == nil {
            #expect(end.rss - start.rss < 1024, "resident: \(start.rss) KiB → \(end.rss) KiB")
        } else {
            print("hot-plug ×100: the resident size not bounded, \(Sanitizer.memoryNotMeasured)")
        }
        let status = try client.request("status")
        #expect(status.contains(#""subscribers":1"#), "the subscriber stayed through it all")
        // A live sensor's `time` counts from a moment on CLOCK_MONOTONIC, which status gives.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let reply = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
        let origin = try #require(reply?["origin"] as? Double, "status has the clock origin: \(status)")
        #expect(origin > 0 && origin < Double(now.tv_sec) + 1, "origin \(origin) is a past CLOCK_MONOTONIC reading")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
