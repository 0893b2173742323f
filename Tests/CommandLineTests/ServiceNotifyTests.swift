import Foundation
import OrientdTestSupport
import Testing

/// systemd's notify protocol against a real datagram socket in NOTIFY_SOCKET, as
/// systemd would hold it.
@Suite("systemd notify protocol")
struct ServiceNotifyTests {
    /// A bound AF_UNIX datagram socket that collects messages.
    final class NotifySocket {
        let path = "/tmp/orientd-notify-\(UUID().uuidString.prefix(8))"
        let descriptor: Int32

        init() throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(r == 0)
        }

        /// Every message that arrives within `seconds`, or until one satisfies `last`.
        func messages(for seconds: Double, until last: (String) -> Bool = { _ in false }) -> [String] {
            timedMessages(for: seconds, until: last).map(\.text)
        }

        /// The same, each with when it arrived.
        func timedMessages(for seconds: Double, until last: (String) -> Bool = { _ in false }) -> [(text: String, at: Date)] {
            var out: [(text: String, at: Date)] = []
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
                let n = recv(descriptor, &buffer, buffer.count, 0)
                guard n > 0 else { continue }
                out.append((String(decoding: buffer[0..<n], as: UTF8.self), Date()))
                if last(out[out.count - 1].text) { break }
            }
            return out
        }

        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    @Test("READY=1 once the replay started, STATUS= with the screen, WATCHDOG=1 at half the interval, STOPPING=1 on SIGTERM")
    func notify() throws {
        let notify = try NotifySocket()
        let scratch = try Scratch()
        let recording = try scratch.write("turn.csv", Scratch.rotationRecording())
        let daemon = try DaemonProcess(
            ["replay", "--speed", "0.5", "--no-commands", recording],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        // Until READY=1 (a wait, as long as the start takes), then the watchdog's pings for
        // a second, timed as they arrive.
        let start = notify.messages(for: TestTime.wait(5)) { $0.hasPrefix("READY=1") }
        let pings = notify.timedMessages(for: 1.0)
        let paced = pings.map(\.text)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 5) == 0)
        let late = notify.messages(for: TestTime.wait(0.3))
        let all = start + paced + late

        let ready = all.firstIndex { $0.hasPrefix("READY=1") }
        #expect(ready != nil, "\(all)")
        #expect(all.filter { $0.hasPrefix("READY=1") }.count == 1, "READY=1 once, without a reload: \(all)")
        #expect(all.first { $0.hasPrefix("READY=1") }?.contains("STATUS=replaying \(recording)") == true)
        #expect(all.contains { $0.hasPrefix("STATUS=") && $0.contains("screen portrait-primary, device portrait, unlocked") })
        // Half the interval apart: their median gap, which a stall of the machine running
        // the test (measured: qemu-user beside a guest) moves less than it moves their count.
        let times = pings.filter { $0.text == "WATCHDOG=1" }.map(\.at)
        let gaps = zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }.sorted()
        print("notify: \(times.count) WATCHDOG=1 in 1 s, gaps \(gaps.map { String(format: "%.3f", $0) }) s")
        #expect(gaps.count >= 3, "WATCHDOG=1 every 100 ms, for 1 s: \(times.count) came")
        if !gaps.isEmpty {
            #expect((0.07...0.15).contains(gaps[gaps.count / 2]), "WATCHDOG=1 every 100 ms: the median gap \(gaps[gaps.count / 2]) s")
        }
        #expect(late.contains { $0.hasPrefix("STOPPING=1") && $0.contains("SIGTERM") })
        #expect(all.last?.hasPrefix("STOPPING=1") == true, "nothing after STOPPING=1")
    }

    @Test("run --wait with no sensor: READY=1 at once, with a STATUS= that says it waits, and the socket answers")
    func readyWithoutSensor() throws {
        let notify = try NotifySocket()
        let scratch = try Scratch()
        let socket = scratch.directory.appendingPathComponent("control.sock").path
        // A device name no machine has, so a real sensor cannot be chosen.
        let daemon = try DaemonProcess(
            ["run", "--wait", "--device", "iio:device97", "--no-config", "--socket", socket],
            environment: ["NOTIFY_SOCKET": notify.path])
        // Held back for a sensor, READY=1 would never come: waited for as long as a start
        // takes (under qemu-user beside a guest, over the 10 s once allowed), and timed.
        let began = Date()
        let messages = notify.messages(for: TestTime.wait(5)) { $0.hasPrefix("READY=1") }
        let ready = messages.first { $0.hasPrefix("READY=1") }
        print("notify, run --wait with no sensor: READY=1 after \(String(format: "%.2f", Date().timeIntervalSince(began))) s")
        #expect(ready?.contains("waiting") == true, "systemctl start would time out: \(messages)")
        let status = try OrientdProcess.run(["ctl", "--socket", socket, "status"])
        #expect(status.status == 0, "\(status.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 5) == 0)
    }

    @Test("the abstract namespace (@name) works too; without NOTIFY_SOCKET nothing is sent")
    func abstractAndAbsent() throws {
        let scratch = try Scratch()
        let recording = try scratch.write("turn.csv", Scratch.rotationRecording())
        let name = "orientd-notify-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: [0] + Array(name.utf8)) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.utf8.count)
        let r = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(r == 0)
        let result = try OrientdProcess.run(["replay", "--fast", recording], environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(result.status == 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 1000) > 0)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(n > 0 && String(decoding: buffer[0..<n], as: UTF8.self).hasPrefix("READY=1"))
    }
}
