import Testing

@testable import OrientdCore

/// What each report of the sources' threads means (`OrientationService+SourceEvents`):
/// the state it changes and the lines it sends, in their order.
@Suite("Source events")
struct SourceEventsTests {
    static let chip = AccelerometerCandidate(
        id: "iio:device0", name: "bmc150_accel", label: nil, location: .display, locationSource: "ACCEL_LOCATION")
    static let base = AccelerometerCandidate(
        id: "iio:device1", name: "bmc150_accel", label: nil, location: .base, locationSource: "ACCEL_LOCATION")
    static let laptopSwitch = TabletModeSwitch(id: "event7", name: "Intel Virtual Switches", node: "/dev/input/event7")

    /// Each outgoing item as a line: its kind, then its text or its JSON.
    func lines(_ items: [OrientationService.Outgoing]) -> [String] {
        items.map { item in
            switch item {
            case .sensor(let event): "sensor " + String(decoding: event.jsonLine.dropLast(), as: UTF8.self)
            case .warning(let text): "warning: " + text
            case .note(let text): "note: " + text
            case .opened(let text): "opened: " + text
            case .waiting(let text): "waiting: " + text
            case .orientation(let event): "orientation \(event.device.rawValue), cause \(event.cause.rawValue)"
            case .mode(let event): "mode \(event.decision.map { "\($0.mode)" } ?? "none")"
            case .lock, .request, .suggestion: "other"
            }
        }
    }

    /// A service reading `chip` in portrait since 0.4 s, its outbox emptied.
    func readingInPortrait() -> OrientationService {
        var service = OrientationService(pipeline: OrientationPipeline())
        let attached = SensorAttachment(candidate: Self.chip, readPath: .buffered, samplingFrequency: 50, mountMatrix: .identity)
        #expect(service.apply(.attached(attached)) == .continues)
        for i in 0..<20 {
            _ = service.apply(.sample(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 0))))
        }
        _ = service.takeOutbox()
        return service
    }

    @Test("a sensor opened: the service reads it with its mount matrix, says so to subscribers, people and systemd")
    func attached() {
        var service = OrientationService(pipeline: OrientationPipeline())
        // Mounted a quarter turn round: the reading (−g, 0, 0) is the device upright.
        let turned = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        let attached = SensorAttachment(
            candidate: Self.chip, readPath: .polled, polledBecause: "its buffer needs a trigger", samplingFrequency: 62.5,
            mountMatrix: turned)
        #expect(service.apply(.attached(attached)) == .continues)
        #expect(service.source == "iio:device0")
        #expect(
            lines(service.takeOutbox()) == [
                #"sensor {"event":"sensor","state":"attached","time":0,"device":"iio:device0","name":"bmc150_accel","location":"display","read":"polled","rate":62.5,"version":1}"#,
                "note: reading iio:device0 (bmc150_accel), polled: its buffer needs a trigger",
                "opened: reading iio:device0, polled",
            ])
        for i in 0..<10 {
            _ = service.apply(.sample(Sample(time: Double(i) * 0.02, acceleration: Vector3(-standardGravity, 0, 0))))
        }
        #expect(lines(service.takeOutbox()) == ["orientation portrait, cause start"])
    }

    @Test("a sensor lost: no pace, the event, a warning, and systemd's status says it is waited for")
    func lost() {
        var service = readingInPortrait()
        _ = service.apply(.pace(device: "iio:device0", .watch, hz: 10))
        #expect(service.readingRate != nil)
        #expect(service.apply(.changed(.lost(reason: "removed"), device: "iio:device0")) == .continues)
        #expect(service.readingRate == nil)
        #expect(
            lines(service.takeOutbox()) == [
                #"sensor {"event":"sensor","state":"lost","time":0.38,"device":"iio:device0","reason":"removed","version":1}"#,
                "warning: iio:device0 lost: removed; waiting for it to return",
                "waiting: iio:device0 lost; waiting for it to return",
            ])
    }

    @Test("a silent buffer: stalled, hung, read polled instead, then resumed; each sets or clears the trouble status shows")
    func silence() {
        var service = readingInPortrait()
        _ = service.apply(.changed(.stalled(seconds: 2), device: "iio:device0", time: 2.5))
        #expect(service.sensorTrouble == .stalled(device: "iio:device0", since: 0.5))
        _ = service.apply(.changed(.hung(seconds: 3), device: "iio:device0", time: 3.5))
        #expect(service.sensorTrouble == .hung(device: "iio:device0", since: 0.5))
        _ = service.apply(.changed(.reading(read: .polled, because: "its buffer sends nothing"), device: "iio:device0", time: 3.6))
        #expect(service.sensorTrouble == .polledInstead(device: "iio:device0", since: 0.5))
        _ = service.apply(.changed(.resumed(afterSeconds: 12), device: "iio:device0", time: 12.4))
        #expect(service.sensorTrouble == nil)
        let hungWarning = "warning: " + BufferSilence.hungWarning("iio:device0", seconds: 3)
        #expect(
            lines(service.takeOutbox()) == [
                #"sensor {"event":"sensor","state":"stalled","time":2.5,"device":"iio:device0","silent":2,"version":1}"#,
                "warning: iio:device0 has sent nothing for 2 s; still waiting for it",
                "waiting: iio:device0 stalled",
                #"sensor {"event":"sensor","state":"hung","time":3.5,"device":"iio:device0","silent":3,"version":1}"#,
                hungWarning,
                "waiting: iio:device0 answers nothing",
                #"sensor {"event":"sensor","state":"reading","time":3.6,"device":"iio:device0","read":"polled","reason":"its buffer sends nothing","version":1}"#,
                "note: iio:device0 is read polled: its buffer sends nothing",
                "opened: reading iio:device0, polled",
                #"sensor {"event":"sensor","state":"resumed","time":12.4,"device":"iio:device0","silent":12,"version":1}"#,
                "note: iio:device0 sends again after 12 s",
                "opened: reading iio:device0",
            ])
    }

    @Test("idle, then read again: a fresh classifier answers the pose found meanwhile at once, cause sensor")
    func idleThenReading() {
        var service = readingInPortrait()
        _ = service.apply(.changed(.idle, device: "iio:device0"))
        #expect(service.readingRate == nil)
        _ = service.apply(.changed(.reading(read: .buffered), device: "iio:device0"))
        for i in 0..<3 {
            _ = service.apply(.sample(Sample(time: 60 + Double(i) * 0.02, acceleration: rest(roll: 90))))
        }
        #expect(
            lines(service.takeOutbox()) == [
                #"sensor {"event":"sensor","state":"idle","time":0.38,"device":"iio:device0","version":1}"#,
                "note: iio:device0 is not read: nothing consumes the events (no subscriber, no hook, output to the journal)",
                "opened: iio:device0 idle: nothing consumes the events",
                #"sensor {"event":"sensor","state":"reading","time":0.38,"device":"iio:device0","read":"buffered","version":1}"#,
                "note: iio:device0 is read buffered: something consumes the events again",
                "opened: reading iio:device0, buffered",
                "orientation landscape-left, cause sensor",
            ])
    }

    @Test("no sensor and not waiting: the run cannot go on, and nothing is sent for it")
    func failed() {
        var service = readingInPortrait()
        #expect(service.apply(.failed("no accelerometer")) == .cannotContinue("no accelerometer"))
        #expect(service.apply(.waiting("waiting for an accelerometer")) == .continues)
        #expect(service.apply(.warning("in_accel_scale: not a number")) == .continues)
        #expect(
            lines(service.takeOutbox()) == [
                "note: waiting for an accelerometer", "waiting: waiting for an accelerometer",
                "warning: in_accel_scale: not a number",
            ])
    }

    @Test("the base accelerometer: read for the hinge, its troubles are warnings, never an end or a sensor event")
    func base() {
        var service = readingInPortrait()
        let attached = SensorAttachment(candidate: Self.base, readPath: .polled, mountMatrix: .identity)
        service.applyBase(.attached(attached))
        #expect(service.base == "iio:device1")
        service.applyBase(.changed(.stalled(seconds: 2.5), device: "iio:device1", time: 3))
        service.applyBase(.failed("no base"))
        service.applyBase(.waiting("waiting for a base accelerometer"))
        service.applyBase(.changed(.idle, device: "iio:device1"))
        service.applyBase(.changed(.lost(reason: "removed"), device: "iio:device1"))
        #expect(service.base == nil)
        #expect(service.sensorTrouble == nil)
        #expect(
            lines(service.takeOutbox()) == [
                "note: reading the base accelerometer iio:device1 (bmc150_accel) for the hinge angle",
                "warning: the base accelerometer iio:device1 has sent nothing for 2 s",
                "warning: the base accelerometer: no base",
                "note: the base accelerometer iio:device1 is lost: removed",
            ])
        service.applyBase(.attached(attached))
        service.baseNoLongerRead()
        #expect(service.base == nil)
        #expect(
            lines(service.takeOutbox()).last
                == "note: the base accelerometer is no longer read: a tablet-mode switch answers, or rotate-in is always")
    }

    @Test("a tablet-mode switch: found, toggled and gone decide the mode; found and gone are said")
    func tabletModeSwitch() {
        var service = readingInPortrait()
        service.applySwitch(.attached(Self.laptopSwitch, .laptop))
        #expect(service.switches.mode == .laptop)
        service.applySwitch(.toggled(Self.laptopSwitch, .tablet))
        #expect(service.switches.mode == .tablet)
        service.applySwitch(.detached(Self.laptopSwitch, reason: "removed"))
        #expect(service.switches.mode == nil)
        service.applySwitch(.warning("no hot-plug"))
        #expect(
            lines(service.takeOutbox()) == [
                "note: tablet-mode switch /dev/input/event7 (Intel Virtual Switches): laptop", "mode laptop", "mode tablet",
                "note: tablet-mode switch /dev/input/event7 removed", "mode none", "warning: no hot-plug",
            ])
    }
}
