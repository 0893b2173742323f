import Foundation
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdTestSupport
import Testing

/// Reading on demand (docs/live-sensors.md, "Live sensors"): with standard output the journal, the
/// sensor is read only while a socket client subscribes.
extension LiveSensorTests {
    func daemonOnJournal(_ socket: String, journal: Bool = true) throws -> DaemonProcess {
        try DaemonProcess(
            ["run", "--wait", "--no-config", "--no-state", "--no-commands", "--socket", socket], outputToJournal: journal)
    }

    func count(_ daemon: DaemonProcess, _ text: String) -> Int { daemon.output.filter { $0.contains(text) }.count }

    /// Waits until `text` has been printed `times` times.
    func waitFor(_ daemon: DaemonProcess, _ text: String, times: Int = 1, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.wait(timeout))
        while count(daemon, text) < times, Date() < deadline { usleep(10_000) }
        return count(daemon, text) >= times
    }

    @Test("buffered, output to the journal: the buffer stays disabled until a subscriber comes, and is disabled again when it leaves")
    func bufferedOnDemand() throws {
        let bed = Testbed()
        try bed.add(fixture("buffered-accel.umockdev"))
        try bed.loadScript(device: "/dev/iio:device0", path: fixtures.appendingPathComponent("buffered-accel.script").path)
        let enable = bed.root + "/sys/devices/platform/bmc150-accel.0/iio:device0/buffer/enable"
        /// What was last written to buffer/enable (libiio writes the terminating NUL too).
        func bufferEnabled() -> String {
            String(((try? String(contentsOfFile: enable, encoding: .utf8)) ?? "").prefix { $0.isNumber })
        }
        let socket = temporarySocketPath()
        let daemon = try daemonOnJournal(socket)
        let asker = try ControlClient.waitingFor(socket)
        #expect(waitFor(daemon, #""state":"idle""#), "idle once attached: \(daemon.output) \(daemon.standardError)")
        #expect(count(daemon, #""state":"attached""#) == 1)
        usleep(300_000)
        #expect(bufferEnabled() == "0", "never enabled while nothing consumes")
        #expect(count(daemon, #""event":"orientation""#) == 0, "nothing read: \(daemon.output)")
        let idleStatus = try asker.request("status")
        #expect(idleStatus.contains(#""reading":false,"consumers":[]"#), "\(idleStatus)")
        #expect(try asker.request("orientation").contains(#""reading":false"#))

        var subscriber: ControlClient? = try ControlClient(path: socket)
        _ = try subscriber?.request("monitor")
        #expect(waitFor(daemon, #""state":"reading""#), "\(daemon.output)")
        #expect(daemon.output.contains { $0.contains(#""state":"reading""#) && $0.contains(#""read":"buffered""#) })
        #expect(bufferEnabled() == "1")
        #expect(waitFor(daemon, #""cause":"start""#), "the pose is read: \(daemon.output)")
        #expect(try asker.request("status").contains(#""reading":true,"consumers":["subscribers"]"#))

        subscriber = nil
        #expect(waitFor(daemon, #""state":"idle""#, times: 2), "idle again once the subscriber left: \(daemon.output)")
        let disabledBy = Date().addingTimeInterval(TestTime.wait(5))
        while bufferEnabled() != "0", Date() < disabledBy { usleep(10_000) }
        #expect(bufferEnabled() == "0", "the buffer is disabled again")
        #expect(count(daemon, #""state":"stalled""#) == 0, "a pause is no stall")
        // The service stays up and answers while idle; SIGTERM ends it as ever.
        #expect(try asker.request("status").contains(#""reading":false"#))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.output.last?.contains(#""event":"stopping""#) == true)
    }

    @Test("polled, output to the journal: not polled while idle; a subscriber gets the current pose at once, after a turn made while idle")
    func polledOnDemand() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 60)))
        let socket = temporarySocketPath()
        let daemon = try daemonOnJournal(socket)
        _ = try ControlClient.waitingFor(socket)
        #expect(waitFor(daemon, #""state":"idle""#), "\(daemon.output) \(daemon.standardError)")
        #expect(daemon.waitForError("is not read: nothing consumes the events"))

        var subscriber: ControlClient? = try ControlClient(path: socket)
        _ = try subscriber?.request("monitor")
        #expect(waitFor(daemon, #""state":"reading""#))
        #expect(
            daemon.waitForLine { $0.contains(#""cause":"start""#) && $0.contains(#""device":"portrait""#) } != nil,
            "\(daemon.output)")
        subscriber = nil
        #expect(waitFor(daemon, #""state":"idle""#, times: 2))

        // Turned while idle: nobody hears of it, since nothing is read.
        bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_x_raw", "-1024")
        bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_y_raw", "0")
        usleep(500_000)
        #expect(!daemon.output.contains { $0.contains(#""device":"landscape-left""#) }, "not polled while idle: \(daemon.output)")

        let resumed = Date()
        let again = try ControlClient(path: socket)
        _ = try again.request("monitor")
        let line = daemon.waitForLine { $0.contains(#""device":"landscape-left""#) && $0.contains(#""cause":"sensor""#) }
        #expect(line != nil, "the pose read again: \(daemon.output)")
        let delay = Date().timeIntervalSince(resumed)
        #expect(delay < 1, "the first event after resuming comes quickly: \(delay) s")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test("a JOURNAL_STREAM that is not standard output's (inherited by a child whose output is a pipe): read as before")
    func journalStreamOfAnotherStream() throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 60)))
        let socket = temporarySocketPath()
        let daemon = try DaemonProcess(
            ["run", "--no-config", "--no-state", "--no-commands", "--socket", socket], environment: ["JOURNAL_STREAM": "1:1"])
        let client = try ControlClient.waitingFor(socket)
        #expect(daemon.waitForLine { $0.contains(#""cause":"start""#) } != nil, "\(daemon.output)")
        #expect(count(daemon, #""state":"idle""#) == 0)
        #expect(try client.request("status").contains(#""reading":true,"consumers":["standard-output"]"#))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
