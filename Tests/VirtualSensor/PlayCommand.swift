import ArgumentParser
import FoundationEssentials
import Glibc
import OrientdClient
import OrientdCore
import OrientdIO

extension VirtualSensorCommand {
    /// `scripts/vm play`'s guest side: one recording through the kernel's drivers into the
    /// installed daemon, and the daemon's events on the recording's clock.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a recording into the installed orientd and print its events as 'orientd replay' would.",
            discussion: """
                Plugs the accelerometer (udev starts orientd for it, as on a tablet), \
                subscribes to the daemon's socket, and starts the recording at the daemon's \
                first read (polled) or when the driver switches reporting on (buffered). \
                After the last sample the sensor is unplugged and, after --settle seconds, \
                every event the daemon printed (orientation, sensor, mode ...) is printed \
                with 'time' on the recording's clock: the moment the first sample is sent \
                is the recording's first timestamp. \
                The devices' log goes to standard error.
                """)

        @Argument(help: "An orientd recording.")
        var recording: String

        @Flag(help: "Check that the daemon reads the sensor this way (its --poll makes it poll).")
        var readPath: ReadPath?

        @Option(
            help: ArgumentHelp(
                "Play through this I2C chip on i2c-stub, read by the kernel's own driver, instead of a HID sensor hub.",
                discussion: "One of \(StubChip.allCases.map(\.name).joined(separator: ", ")); the stub adapter must be loaded "
                    + "with its address (scripts/vm play --driver does it).",
                valueName: "chip"))
        var driver: StubChip?

        @Flag(
            help: ArgumentHelp(
                "A HID sensor hub without a change sensitivity (no in_accel_hysteresis to set), as older hubs are; "
                    + "by default it has one and honours it, as most 2-in-1s' hubs do."))
        var noSensitivity = false

        @Option(
            name: .customLong("fault"),
            help: ArgumentHelp(
                "Misbehave as real hardware does, from START seconds into the recording for SECONDS (repeatable).",
                discussion: "quiet: no input reports, reads still answered (a dead buffer); zeros: every reading all "
                    + "zero; garbage: every reading ±32767 counts; replug: the hub goes away and comes back as a new "
                    + "device; forget: the hub loses its settings (power, reporting, interval); hang: the hub answers "
                    + "nothing, reports or requests; freeze: every reading the one due at START, to the last bit. "
                    + "With --driver (a register file): zeros, garbage, freeze and replug.",
                valueName: "kind@start+seconds"))
        var faults: [Fault] = []

        @Option(help: "The daemon's control socket.")
        var socket = ControlSocket.systemPath

        @Option(help: "Seconds to wait for the daemon to answer once the sensor is plugged.")
        var attachTimeout = 30.0

        @Option(help: "Seconds to collect events after the recording ends.")
        var settle = 1.0

        @Option(
            help: ArgumentHelp(
                "Ask the daemon for its status every SECONDS on the play's connection; how long each answer took goes to "
                    + "standard error at the end (a status-answers line).", valueName: "seconds"))
        var statusEvery: Double?

        func validate() throws {
            if let driver, let fault = faults.first(where: { !$0.kind.onRegisters }) {
                throw ValidationError(
                    "--fault \(fault.kind.rawValue) is the HID hub's: \(driver.name) on i2c-stub is a register file, which can "
                        + "hold zeros, garbage or a frozen reading and be replugged, but has no reports to stop or requests to "
                        + "leave unanswered")
            }
        }

        func run() throws {
            let playback = try Playback(path: recording, loops: false, warn: printError)
            let sensor: any PlayedAccelerometer
            if let driver {
                sensor = I2CAccelerometer(
                    chip: driver, location: .display, playback: playback, start: .onDemand, bus: try I2CStubBus(), faults: faults,
                    log: printError)
            } else {
                sensor = VirtualAccelerometer(
                    location: .display, playback: playback, start: .onDemand, faults: faults, offersSensitivity: !noSensitivity,
                    log: printError)
            }
            sensor.armed = false
            let hardware = VirtualHardware(log: printError)
            hardware.display = sensor
            var session = Session(socket: socket, statusEvery: statusEvery)
            let plugged = MonotonicClock.now
            try sensor.plug()
            defer { hardware.unplugAll() }
            var finishedAt: Double?
            var failure: String?
            try hardware.run { now in
                do {
                    try session.advance(now: now)
                } catch {
                    failure = "\(error)"
                    return true
                }
                if !sensor.armed, session.origin != nil {
                    sensor.armIfDemanded()
                }
                if session.origin == nil && now - plugged > attachTimeout {
                    failure = session.whyNotReady(after: attachTimeout)
                    return true
                }
                if let end = finishedAt { return now >= end + settle }
                if sensor.hasFinished(at: now) {
                    sensor.unplug()
                    finishedAt = now
                }
                return false
            }
            if let failure { throw VirtualDeviceError(failure) }
            guard let origin = session.origin, let started = sensor.playback.start else {
                throw VirtualDeviceError("the daemon never read the sensor: no sample was asked for")
            }
            if let hub = sensor as? VirtualAccelerometer {
                // Which way the daemon read, as the device saw it: a polled read of
                // in_accel_*_raw is a get-report of the input report, three a sample, and a
                // polled daemon asks a sample a second at rest and more while it moves. A
                // buffered one asks none but one axis a minute to check a silent hub. The
                // driver switches reporting on for polled reads too, so the input reports
                // it sends say nothing. Judged over the last 3 s of the recording (the
                // daemon may read another way while faults last: polled while the buffer
                // is dead), or over the whole play when it loops.
                let window =
                    hub.countsBeforeEnd.map { (reads: hub.readsAnswered - $0.reads, seconds: 3.0) }
                    ?? (reads: hub.readsAnswered, seconds: max(MonotonicClock.now - started, 1))
                let found = Double(window.reads) >= 3 * window.seconds ? ReadPath.poll : ReadPath.buffered
                printError(
                    #"{"event":"read","reads":\#(hub.readsAnswered),"reports":\#(hub.reportsSent),"unanswered":\#(hub.unanswered),"readsInWindow":\#(window.reads),"window":\#(JSONLineWriter.number(window.seconds)),"path":"\#(found.rawValue)"}"#
                )
                if let readPath, found != readPath {
                    throw VirtualDeviceError("the daemon read the sensor \(found.rawValue), not \(readPath.rawValue)")
                }
            } else if let chip = sensor as? I2CAccelerometer {
                // A register file cannot count reads; the chips on i2c-stub have no interrupt
                // line, so no trigger of their own: the daemon polls unless a trigger is given.
                printError(#"{"event":"read","driver":"\#(chip.chip.name)","readingsWritten":\#(chip.readingsWritten)}"#)
            }
            // Live times count from the daemon's clock origin; the recording's from its
            // first sample, which was sent at `started`.
            if statusEvery != nil { printError(session.statusAnswers(at: MonotonicClock.now)) }
            let shift = origin - started + playback.firstTime
            let orientations = session.events.filter { $0.event == "orientation" }
            let firstEvent = orientations.first?.time.map { JSONLineWriter.number(origin + $0) } ?? "null"
            printError(
                #"{"event":"summary","plugged":\#(JSONLineWriter.number(plugged)),"answered":\#(session.connectedAt.map { JSONLineWriter.number($0) } ?? "null"),"started":\#(JSONLineWriter.number(started)),"origin":\#(JSONLineWriter.number(origin)),"firstEvent":\#(firstEvent),"events":\#(session.events.count)}"#
            )
            for line in session.events {
                printOutput(line.retimed(by: shift))
            }
        }
    }

    enum ReadPath: String, EnumerableFlag {
        case poll = "polled"
        case buffered

        static func name(for value: ReadPath) -> NameSpecification {
            value == .poll ? .customLong("poll") : .customLong("buffered")
        }
    }
}

/// The play's side of the daemon's socket: connect once it answers, subscribe, learn the
/// clock origin from `status`, and keep every event.
struct Session {
    let socket: String
    private var client: ControlClient?
    private var lastAttempt = -Double.infinity
    private var lastError: String?
    private(set) var origin: Double?
    /// When the daemon first answered on the socket (CLOCK_MONOTONIC).
    private(set) var connectedAt: Double?
    private(set) var events: [EventLine] = []
    /// How often to ask for `status` once the origin is known, when the asked is measured.
    let statusEvery: Double?
    /// When the status asked for last was sent, while its answer is awaited; when the
    /// last was asked; and how long each answer took, in seconds.
    private var statusAsked: Double?
    private var lastAsked = -Double.infinity
    private var answerTimes: [Double] = []

    init(socket: String, statusEvery: Double? = nil) {
        self.socket = socket
        self.statusEvery = statusEvery
    }

    /// The `status-answers` line at `now`: how many were asked, answered, and how long
    /// the answers took (median and slowest, in seconds). One still awaited counts as
    /// unanswered once it has waited 0.2 s; one asked just before the end does not count.
    func statusAnswers(at now: Double) -> String {
        let sorted = answerTimes.sorted()
        let median = sorted.isEmpty ? "null" : JSONLineWriter.number(sorted[sorted.count / 2], decimals: 4)
        let slowest = sorted.last.map { JSONLineWriter.number($0, decimals: 4) } ?? "null"
        let asked = answerTimes.count + (statusAsked.map { now - $0 >= 0.2 ? 1 : 0 } ?? 0)
        return #"{"event":"status-answers","asked":\#(asked),"answered":\#(answerTimes.count),"median":\#(median),"slowest":\#(slowest)}"#
    }

    mutating func advance(now: Double) throws(VirtualDeviceError) {
        guard let client else {
            guard now - lastAttempt >= 0.02 else { return }
            lastAttempt = now
            do {
                let client = try ControlClient(path: socket)
                try client.send("monitor")
                try client.send("status")
                self.client = client
                connectedAt = MonotonicClock.now
            } catch {
                lastError = "\(error)"
            }
            return
        }
        let lines: [[UInt8]]?
        do { lines = try client.availableLines() } catch { throw VirtualDeviceError("reading \(socket): \(error)") }
        guard let lines else {
            throw VirtualDeviceError("the daemon closed \(socket) during the play (did it crash? journalctl -u orientd)")
        }
        for bytes in lines {
            guard let line = EventLine(bytes) else { continue }
            if line.reply == "status", self.origin != nil, let asked = statusAsked {
                answerTimes.append(MonotonicClock.now - asked)
                statusAsked = nil
            } else if line.reply == "status" {
                guard let origin = line.origin else {
                    throw VirtualDeviceError("the daemon's status has no clock origin: is it reading a live sensor? \(line.text)")
                }
                self.origin = origin
            } else if line.event != nil {
                events.append(line)
            }
        }
        if let every = statusEvery, origin != nil, statusAsked == nil, now - lastAsked >= every {
            do { try client.send("status") } catch { throw VirtualDeviceError("asking \(socket) for its status: \(error)") }
            statusAsked = MonotonicClock.now
            lastAsked = now
        }
    }

    func whyNotReady(after seconds: Double) -> String {
        if client == nil {
            return "no daemon answered on \(socket) within \(seconds) s of plugging the sensor (\(lastError ?? "")); "
                + "did udev start orientd? systemctl status orientd; journalctl -u orientd"
        }
        return "the daemon answered on \(socket) but its status never came within \(seconds) s"
    }
}

/// One line from the daemon, with the fields play looks at.
struct EventLine {
    let text: String
    let event: String?
    let reply: String?
    let origin: Double?
    let time: Double?

    private struct Fields: Decodable {
        var event: String?
        var reply: String?
        var origin: Double?
        var time: Double?
    }

    init?(_ bytes: [UInt8]) {
        let body = bytes.last == UInt8(ascii: "\n") ? Array(bytes.dropLast()) : bytes
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(body)) else { return nil }
        text = String(decoding: body, as: UTF8.self)
        event = fields.event
        reply = fields.reply
        origin = fields.origin
        time = fields.time
    }

    /// The line with its `time` moved by `shift` seconds, written as orientd writes
    /// times; everything else stays as the daemon wrote it, byte for byte.
    func retimed(by shift: Double) -> String {
        let bytes = Array(text.utf8)
        let key = Array(#""time":"#.utf8)
        guard let at = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else { return text }
        let start = at + key.count
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? bytes.endIndex
        guard let time = Double(String(decoding: bytes[start..<end], as: UTF8.self)) else { return text }
        return String(decoding: bytes[..<start], as: UTF8.self) + JSONLineWriter.number(time + shift)
            + String(decoding: bytes[end...], as: UTF8.self)
    }
}

extension StubChip: ExpressibleByArgument {}
