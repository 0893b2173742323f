import Testing

@testable import OrientdCore

@Suite("Events")
struct EventTests {
    func text(_ e: OrientationEvent) -> String { String(decoding: e.jsonLine, as: UTF8.self) }

    @Test("an orientation event is one JSON line with every documented field, in order")
    func orientationLine() {
        let e = OrientationEvent(
            time: 3.52, device: .landscapeLeft, screen: .degrees90, previousScreen: .degrees0,
            natural: .portrait, locked: false, cause: .sensor)
        #expect(
            text(e)
                == #"{"event":"orientation","time":3.52,"device":"landscape-left","screen":"landscape-primary","angle":90,"locked":false,"previous":"portrait-primary","xrandr":"right","transform":"270","hyprland":3,"cause":"sensor","version":1}"#
                + "\n")
    }

    @Test("the first event has a null previous; names follow the natural orientation")
    func firstEventOnLandscapePanel() {
        let e = OrientationEvent(
            time: 0.04, device: .landscapeRight, screen: .degrees270, previousScreen: nil,
            natural: .landscape, locked: true, cause: .start)
        #expect(
            text(e)
                == #"{"event":"orientation","time":0.04,"device":"landscape-right","screen":"portrait-primary","angle":270,"locked":true,"previous":null,"xrandr":"left","transform":"90","hyprland":1,"cause":"start","version":1}"#
                + "\n")
    }

    @Test("hooks and sensor events are one JSON line each, byte for byte; a list of objects has no newline inside")
    func hooksAndSensorLines() {
        let results = [
            HookResult(command: HookCommand(arguments: ["orientd-rotate-sway"]), ending: .exited(0), seconds: 0.0123),
            HookResult(command: HookCommand(arguments: ["slow"]), ending: .timedOut(2), seconds: 2.001),
        ]
        #expect(
            String(decoding: HooksEvent(time: 5.71, screen: "portrait-secondary", results: results).jsonLine, as: UTF8.self)
                == #"{"event":"hooks","time":5.71,"screen":"portrait-secondary","outcome":"failed","results":[{"command":"orientd-rotate-sway","outcome":"changed","exit":0,"seconds":0.012},{"command":"slow","outcome":"failed","timeout":true,"seconds":2.001,"error":"still running after 2 s; killed"}],"version":1}"#
                + "\n")
        #expect(
            String(decoding: HooksEvent(time: 1, screen: "portrait-primary", results: []).jsonLine, as: UTF8.self)
                == #"{"event":"hooks","time":1,"screen":"portrait-primary","outcome":null,"results":[],"version":1}"# + "\n")
        #expect(
            String(
                decoding: SensorStateEvent(
                    .attached(name: "bmc150_accel", location: .unknown, read: .polled, rate: 62.5), device: "iio:device0", time: 0
                ).jsonLine,
                as: UTF8.self)
                == #"{"event":"sensor","state":"attached","time":0,"device":"iio:device0","name":"bmc150_accel","location":"unknown","read":"polled","rate":62.5,"version":1}"#
                + "\n")
        #expect(
            String(decoding: SensorStateEvent(.lost(reason: "removed"), device: "iio:device0", time: 2.5).jsonLine, as: UTF8.self)
                == #"{"event":"sensor","state":"lost","time":2.5,"device":"iio:device0","reason":"removed","version":1}"# + "\n")
    }

    @Test("transform names of every rotation (docs/events.md, 'Axes and names')")
    func transforms() {
        #expect(Rotation.allCases.map(\.xrandrName) == ["normal", "right", "inverted", "left"])
        #expect(Rotation.allCases.map(\.waylandTransform) == ["normal", "270", "180", "90"])
        #expect(Rotation.allCases.map(\.hyprlandTransform) == [0, 3, 2, 1])
    }

    @Test("numbers and strings are always valid JSON")
    func jsonEscaping() {
        var w = JSONLineWriter()
        w.add("s", "a\"b\\c\nd\u{1}é")
        w.add("t", 0.0000004)
        w.add("u", -0.0000001)
        w.add("v", 12.0)
        w.add("w", Double.nan)
        w.add("x", strings: ["a", "b"])
        #expect(
            String(decoding: w.line(), as: UTF8.self)
                == #"{"s":"a\"b\\c\nd\u0001é","t":0,"u":0,"v":12,"w":null,"x":["a","b"]}"# + "\n")
        // Escapes first, last, next to each other and alone; the runs between them whole.
        for (text, json) in [
            ("", #""""#), ("\"", #""\"""#), ("\r\t", #""\r\t""#), ("\u{7f}x\u{1f}", #""\u007fx\u001f""#),
            ("landscape-primary", #""landscape-primary""#), ("🙂\\", #""🙂\\""#),
        ] {
            var out: [UInt8] = []
            JSONLineWriter.appendString(text, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == json, "\(text.debugDescription)")
        }
    }
}

@Suite("Pipeline")
struct PipelineTests {
    @Test("one event for the first certain state, then one per change, none while nothing changes")
    func eventsOnChangeOnly() {
        var p = OrientationPipeline()
        var events: [OrientationEvent] = []
        func run(_ v: Vector3, from: Double, seconds: Double) {
            for i in 0..<Int(seconds * 50) {
                if let e = p.process(Sample(time: from + Double(i) / 50, acceleration: v)) { events.append(e) }
            }
        }
        run(rest(roll: 0), from: 0, seconds: 2)
        run(rest(roll: 0, tilt: 85), from: 2, seconds: 2)
        run(rest(roll: 270), from: 4, seconds: 2)
        #expect(events.map(\.device) == [.portrait, .faceUp, .landscapeRight])
        #expect(events.map(\.screen) == [.degrees0, .degrees0, .degrees270])
        #expect(events.map(\.cause) == [.start, .sensor, .sensor])
        #expect(events.map(\.previousScreen) == [nil, .degrees0, .degrees0])
        #expect(events[1].screenChanged == false)
    }

    @Test("the mount matrix is applied before classification")
    func mountMatrix() throws {
        // A sensor mounted turned a quarter: the panel's portrait reads raw (−g, 0, 0).
        let m = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        var p = OrientationPipeline(mountMatrix: m)
        var first: OrientationEvent?
        for i in 0..<50 where first == nil {
            first = p.process(Sample(time: Double(i) / 50, acceleration: Vector3(-g, 0, 0)))
        }
        #expect(first?.device == .portrait)
    }

    @Test("lock and unlock give events when something visible changes, not before the first state")
    func lockEvents() {
        var p = OrientationPipeline()
        #expect(p.lock([.degrees90]).event == nil, "nothing reported yet")
        #expect(p.unlock() == nil)
        for i in 0..<50 { _ = p.process(Sample(time: Double(i) / 50, acceleration: rest(roll: 0))) }
        let locked = p.lock([.degrees90, .degrees270]).event
        #expect(locked?.screen == .degrees90)
        #expect(locked?.locked == true)
        #expect(locked?.cause == .lock)
        #expect(locked?.device == .portrait)
        #expect(p.lock([.degrees90]).event == nil, "same screen, still locked: nothing to say")
        let unlocked = p.unlock()
        #expect(unlocked?.screen == .degrees0)
        #expect(unlocked?.locked == false)
        #expect(unlocked?.cause == .unlock)
        #expect(p.lockCurrent()?.locked == true)
    }
}
