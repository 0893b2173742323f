import Glibc
import Testing

@testable import OrientdCore

@Suite("Control commands")
struct ControlCommandTests {
    func parse(_ line: String, _ natural: NaturalOrientation = .portrait) throws -> ControlCommand? {
        try ControlCommand.parse(line, natural: natural)
    }

    func rejection(_ line: String) -> ControlCommand.Rejection? {
        do {
            _ = try ControlCommand.parse(line, natural: .portrait)
            return nil
        } catch {
            return error
        }
    }

    @Test("every command, case-insensitive, with blanks around")
    func commands() throws {
        #expect(try parse("orientation") == .service(.orientation))
        #expect(try parse("  STATUS\t") == .daemon(.status))
        #expect(try parse("lock landscape") == .service(.lock([.degrees90, .degrees270], words: "landscape")))
        #expect(
            try parse("lock   portrait-primary, landscape-primary ")
                == .service(.lock([.degrees0, .degrees90], words: "portrait-primary, landscape-primary")))
        #expect(try parse("lock current") == .service(.lockCurrent))
        #expect(try parse("Lock Current") == .service(.lockCurrent))
        #expect(try parse("unlock") == .service(.unlock))
        #expect(
            try parse("supported all-but-upside-down")
                == .service(.supported([.degrees0, .degrees90, .degrees270], words: "all-but-upside-down")))
        #expect(try parse("monitor") == .daemon(.monitor))
        #expect(try parse("help") == .daemon(.help))
        #expect(try parse("quit") == .daemon(.quit))
    }

    @Test("the lock words follow the panel's natural orientation")
    func natural() throws {
        #expect(try parse("lock landscape-primary", .landscape) == .service(.lock([.degrees0], words: "landscape-primary")))
    }

    @Test("blank lines and comments are not commands")
    func blanks() throws {
        #expect(try parse("") == nil)
        #expect(try parse("   ") == nil)
        #expect(try parse("# a comment") == nil)
    }

    @Test("a lock without an orientation is refused the way Capacitor refuses it")
    func missingArgument() {
        #expect(rejection("lock")?.message.hasPrefix("lock: an orientation must be given") == true)
        #expect(rejection("lock ")?.command == "lock")
        #expect(rejection("supported")?.message.hasPrefix("supported: an orientation must be given") == true)
    }

    @Test("unknown words, extra arguments and JSON are refused with what to send instead")
    func refusals() {
        #expect(rejection("lock sideways")?.message.contains("unknown orientation 'sideways'") == true)
        #expect(rejection("unlock now")?.message == "unlock: takes no argument, got 'now'")
        let unknown = rejection("rotate left")
        #expect(unknown?.command == "error")
        #expect(unknown?.message.contains("unknown command 'rotate'") == true)
        #expect(unknown?.message.contains("lock current") == true)
        #expect(rejection(#"{"command":"lock"}"#)?.message.contains("not JSON") == true)
        let long = rejection(String(repeating: "x", count: 500))
        #expect((long?.message.count ?? 1000) < 300, "an unknown word is shortened in the reply")
    }
}

@Suite("Line framing of control input")
struct LineFramerTests {
    @Test("lines are cut at newlines; CR before LF is dropped; a partial line waits")
    func lines() {
        var framer = LineFramer()
        let r1 = framer.append(Array("status\r\nlock land".utf8))
        #expect(r1 == [.line("status")])
        #expect(framer.hasPartialLine)
        let r2 = framer.append(Array("scape\n".utf8))
        #expect(r2 == [.line("lock landscape")])
        #expect(!framer.hasPartialLine)
    }

    @Test("binary and invalid UTF-8 lines are refused, later lines still read")
    func invalid() {
        var framer = LineFramer()
        let items = framer.append([0x00, 0x01, 0x0a, 0xff, 0xfe, 0x0a] + Array("help\n".utf8))
        #expect(items.count == 3)
        guard items.count == 3 else { return }
        #expect(items[0] == .invalid("binary data (control characters) in the request; requests are lines of text"))
        #expect(items[1] == .invalid("the request is not valid UTF-8 text"))
        #expect(items[2] == .line("help"))
        let r3 = framer.append(Array("lock é\n".utf8))
        #expect(r3 == [.line("lock é")], "UTF-8 text is text")
    }

    @Test("a line over the limit ends the input; nothing more is read")
    func tooLong() {
        var framer = LineFramer(limit: 8)
        let r4 = framer.append(Array("12345678\n".utf8))
        #expect(r4 == [.line("12345678")], "exactly the limit is fine")
        let r5 = framer.append(Array("123456789\nhelp\n".utf8))
        #expect(r5 == [.tooLong])
        #expect(framer.overran)
        let r6 = framer.append(Array("help\n".utf8))
        #expect(r6 == [])
    }
}

@Suite("Bounded output to a consumer")
struct OutboundBufferTests {
    @Test("whole lines only, up to the bound; draining makes room")
    func bound() {
        var buffer = OutboundBuffer(limit: 10)
        let r7 = buffer.enqueue(Array("12345\n".utf8))
        #expect(r7)
        let refused = !buffer.enqueue(Array("abcde\n".utf8))
        #expect(refused, "12 bytes would cross the bound of 10")
        #expect(buffer.count == 6)
        var written: [UInt8] = []
        buffer.drain { bytes in
            written += bytes.prefix(4)
            return 4
        }
        #expect(buffer.count == 2)
        let r8 = buffer.enqueue(Array("abcd\n".utf8))
        #expect(r8)
        buffer.drain { bytes in
            written += bytes
            return bytes.count
        }
        #expect(String(decoding: written, as: UTF8.self) == "12345\nabcd\n")
        #expect(buffer.isEmpty)
        let r9 = buffer.enqueue(Array("123456789\n".utf8))
        #expect(r9)
        let r10 = buffer.removeAll()
        #expect(r10 == 10)
    }
}

@Suite("Hook commands and outcomes")
struct HookTests {
    func words(_ text: String) throws -> [String] { try HookCommand(parsing: text).arguments }

    func error(_ text: String) -> String? {
        do {
            _ = try HookCommand(parsing: text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("words are split as a shell would, but nothing is expanded")
    func splitting() throws {
        #expect(try words("orientd-rotate-sway") == ["orientd-rotate-sway"])
        #expect(try words("  notify-send  'screen rotated'  ") == ["notify-send", "screen rotated"])
        #expect(error(#"sh -c "xrandr -o \"$1\"" hook"#)?.contains("shell syntax") == true, "a $ inside double quotes is refused")
    }

    @Test("quotes and escapes")
    func quotes() throws {
        #expect(try words(#"printf '%s\n' "a b" c\ d"#) == ["printf", #"%s\n"#, "a b", "c d"])
        #expect(try words(#"sh -c 'echo $ORIENTD_SCREEN >> /tmp/log'"#) == ["sh", "-c", "echo $ORIENTD_SCREEN >> /tmp/log"])
        #expect(try words("a ''") == ["a", ""])
    }

    @Test("shell syntax outside single quotes is refused with the sh -c form")
    func shellSyntax() {
        for text in ["xrandr -o right | tee log", "a; b", "a && b", "a > f", "echo $HOME", "echo `id`", "ls *"] {
            let message = error(text)
            #expect(message?.contains("hooks run without a shell") == true, "\(text)")
            #expect(message?.contains("sh -c") == true)
        }
        #expect(error("a 'b") == "'a 'b': the quote ' is not closed")
        #expect(error("a \\") == "'a \\': ends with a lone backslash")
        #expect(error("   ") == "an empty command was given")
    }

    @Test("exit statuses become outcomes; failed beats changed beats unchanged")
    func outcomes() {
        #expect(HookOutcome(exitStatus: 0) == .changed)
        #expect(HookOutcome(exitStatus: 100) == .unchanged)
        #expect(HookOutcome(exitStatus: 1) == .failed)
        #expect(HookOutcome.reconcile([.unchanged, .changed]) == .changed)
        #expect(HookOutcome.reconcile([.changed, .failed, .unchanged]) == .failed)
        #expect(HookOutcome.reconcile([.unchanged]) == .unchanged)
        #expect(HookOutcome.reconcile([]) == nil)
        let command = HookCommand(arguments: ["x"])
        #expect(HookResult(command: command, ending: .signalled(9), seconds: 1).outcome == .failed)
        #expect(HookResult(command: command, ending: .timedOut(2.5), seconds: 2.5).failure == "still running after 2.5 s; killed")
        #expect(HookResult(command: command, ending: .exited(100), seconds: 0).failure == nil)
    }

    @Test("a hook gets the event in ORIENTD_* variables and the W3C types as arguments")
    func environment() {
        let event = OrientationEvent(
            time: 1, device: .landscapeLeft, screen: .degrees90, previousScreen: .degrees0, natural: .portrait,
            locked: false, cause: .sensor)
        let env = Dictionary(uniqueKeysWithValues: event.hookEnvironment.map { ($0.name, $0.value) })
        #expect(env["ORIENTD_SCREEN"] == "landscape-primary")
        #expect(env["ORIENTD_PREVIOUS"] == "portrait-primary")
        #expect(env["ORIENTD_XRANDR"] == "right")
        #expect(env["ORIENTD_TRANSFORM"] == "270")
        #expect(env["ORIENTD_HYPRLAND"] == "3")
        #expect(env["ORIENTD_ANGLE"] == "90")
        #expect(env["ORIENTD_DEVICE"] == "landscape-left")
        #expect(env["ORIENTD_EVENT"]?.hasPrefix(#"{"event":"orientation""#) == true)
        #expect(env["ORIENTD_EVENT"]?.hasSuffix("}") == true)
        #expect(event.hookArguments == ["landscape-primary", "portrait-primary"])
        let first = OrientationEvent(
            time: 0, device: .portrait, screen: .degrees0, previousScreen: nil, natural: .portrait, locked: false, cause: .start)
        #expect(first.hookArguments == ["portrait-primary", ""])
    }
}

@Suite("Persisted state")
struct PersistedStateTests {
    func parse(_ text: String) throws -> PersistedState { try PersistedState(parsing: text, source: "state") }

    @Test("a lock and no lock round-trip through the file's text")
    func roundTrip() throws {
        for lock: RotationSet? in [nil, [.degrees90, .degrees270], [.degrees0]] {
            #expect(try parse(PersistedState(lock: lock).text).lock == lock)
        }
    }

    @Test("a corrupt file is an issue that names the line")
    func corrupt() {
        func issue(_ text: String) -> String? {
            do {
                _ = try parse(text)
                return nil
            } catch let issue as InputIssue {
                return issue.description
            } catch {
                return "\(error)"
            }
        }
        #expect(issue("version 1\nlock 45\n") == "state:2: '45' is not an angle of 0, 90, 180 or 270")
        #expect(issue("version 2\nlock none\n") == "state:1: unsupported state version '2' (this orientd writes 1)")
        #expect(issue("version 1\n") == "state: no 'lock' line")
        #expect(issue("lock none\n") == "state: no 'version' line")
        #expect(issue("version 1\nlock none\ncolour blue\n") == "state:3: unknown key 'colour'")
        #expect(issue("") == "state: no 'version' line", "an empty file, as a crash during a non-atomic write would leave")
    }
}

@Suite("The daemon's rules: commands and samples in one order")
struct OrientationServiceTests {
    func serviceInPortrait() -> OrientationService {
        var service = OrientationService(pipeline: OrientationPipeline())
        for i in 0..<20 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 0))) }
        return service
    }

    func lines(_ items: [OrientationService.Outgoing]) -> [String] {
        items.compactMap {
            switch $0 {
            case .orientation(let e): String(decoding: e.jsonLine, as: UTF8.self)
            case .lock(let e): String(decoding: e.jsonLine, as: UTF8.self)
            case .sensor(let e): String(decoding: e.jsonLine, as: UTF8.self)
            default: nil
            }
        }
    }

    @Test("lock: a lock event, then the screen moving at once, then the reply with the new state")
    func lock() throws {
        var service = serviceInPortrait()
        let start = lines(service.takeOutbox())
        #expect(start.count == 1, "the start event")
        let execution = service.execute(.lock([.degrees90, .degrees270], words: "landscape"), by: .socket)
        #expect(execution.lockChanged)
        let out = lines(service.takeOutbox())
        #expect(out.count == 2)
        #expect(out.first?.contains(#""event":"lock""#) == true)
        #expect(out.first?.contains(#""allowed":["landscape-primary","landscape-secondary"],"by":"socket""#) == true)
        #expect(out.last?.contains(#""screen":"landscape-primary","angle":90,"locked":true"#) == true)
        #expect(out.last?.contains(#""cause":"lock""#) == true)
        let reply = String(decoding: execution.reply, as: UTF8.self)
        #expect(reply.hasPrefix(#"{"reply":"lock","ok":true,"type":"landscape-primary","angle":90,"device":"portrait","locked":true"#))
    }

    @Test("unlock re-evaluates the pose at once; the same lock twice changes nothing")
    func unlock() {
        var service = serviceInPortrait()
        _ = service.execute(.lock([.degrees90], words: "90"), by: .stdin)
        _ = service.takeOutbox()
        let again = service.execute(.lock([.degrees90], words: "90"), by: .stdin)
        #expect(!again.lockChanged)
        let nothing = service.takeOutbox()
        #expect(nothing.isEmpty)
        let unlock = service.execute(.unlock, by: .stdin)
        #expect(unlock.lockChanged)
        let out = lines(service.takeOutbox())
        #expect(out.last?.contains(#""screen":"portrait-primary","angle":0,"locked":false,"previous":"landscape-primary""#) == true)
    }

    @Test("lock current pins the screen where it is; a disjoint lock wins with a warning in the reply")
    func lockCurrentAndDisjoint() {
        var service = OrientationService(pipeline: OrientationPipeline(supported: [.degrees0, .degrees180]))
        for i in 0..<20 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 0))) }
        _ = service.execute(.lockCurrent, by: .stdin)
        #expect(service.pipeline.policy.effective == [.degrees0])
        let disjoint = service.execute(.lock([.degrees90], words: "landscape-primary"), by: .stdin)
        #expect(String(decoding: disjoint.reply, as: UTF8.self).contains(#""warning":"none of 'landscape-primary' is supported"#))
        #expect(service.pipeline.policy.screen == .degrees90)
    }

    @Test("orientation answers like Capacitor's orientation(): type and angle, before any event too")
    func orientation() {
        var service = OrientationService(pipeline: OrientationPipeline(natural: .landscape))
        let reply = String(decoding: service.execute(.orientation, by: .stdin).reply, as: UTF8.self)
        #expect(reply.hasPrefix(#"{"reply":"orientation","ok":true,"type":"landscape-primary","angle":0,"device":"unknown""#))
        let nothing = service.takeOutbox()
        #expect(nothing.isEmpty)
    }

    @Test("request: a request event, then the screen; never saved; its owner's end releases it with the same pair")
    func requestAndRelease() {
        var service = serviceInPortrait()
        _ = service.takeOutbox()
        let execution = service.execute(.request([.degrees90, .degrees270], words: "landscape"), by: .socket)
        #expect(!execution.lockChanged, "a request is not the saved lock")
        var out = service.takeOutbox()
        guard out.count == 2, case .request(let made) = out[0], case .orientation(let moved) = out[1] else {
            Issue.record("expected a request event and an orientation event, got \(out)")
            return
        }
        #expect(
            String(decoding: made.jsonLine, as: UTF8.self).hasPrefix(
                #"{"event":"request","time":0.38,"by":"client 1","requested":["landscape-primary","landscape-secondary"],"allowed":["landscape-primary","landscape-secondary"],"requests":1,"version":1}"#
            ))
        #expect(moved.cause == .request)
        service.releaseRequest(of: "someone else")
        #expect(service.takeOutbox().isEmpty)
        service.releaseRequest(of: "client 1")
        out = service.takeOutbox()
        guard out.count == 2, case .request(let ended) = out[0], case .orientation(let back) = out[1] else {
            Issue.record("expected a request event and an orientation event, got \(out)")
            return
        }
        #expect(ended.requested == nil)
        #expect(back.cause == .release)
        #expect(back.screen == .degrees0)
    }

    @Test("mode: a mode event, then the screen; a command gives way to a better source in the reply's warning")
    func modeCommand() {
        var service = OrientationService(pipeline: OrientationPipeline())
        for i in 0..<20 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 90))) }
        _ = service.takeOutbox()
        _ = service.execute(.mode(.laptop), by: .stdin)
        let out = service.takeOutbox()
        guard out.count == 2, case .mode(let mode) = out[0], case .orientation(let moved) = out[1] else {
            Issue.record("expected a mode event and an orientation event, got \(out)")
            return
        }
        #expect(
            String(decoding: mode.jsonLine, as: UTF8.self)
                == #"{"event":"mode","time":0.38,"mode":"laptop","source":"command","hinge":null,"version":1}"# + "\n")
        #expect(moved.cause == .mode)
        #expect(moved.screen == .degrees0)
        _ = service.execute(.mode(.laptop), by: .stdin)
        #expect(service.takeOutbox().isEmpty, "the same mode again is no change")
    }

    @Test("readings in counts, not m/s², are warned about once, naming the sensor")
    func units() {
        var service = OrientationService(pipeline: OrientationPipeline())
        service.attach(source: "iio:device0", mountMatrix: .identity, event: nil)
        for i in 0..<200 { service.process(Sample(time: Double(i) * 0.02, acceleration: Vector3(0, -1, 0))) }
        let warnings = service.takeOutbox().compactMap { if case .warning(let w) = $0 { w } else { nil } }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("iio:device0: ") == true)
    }
}

extension OrientationServiceTests {
    func modeEvents(_ items: [OrientationService.Outgoing]) -> [ModeEvent] {
        items.compactMap { if case .mode(let e) = $0 { e } else { nil } }
    }

    @Test("the hinge from paired base and display readings; a switch overrules it and lets the base sensor go")
    func hingeAndSwitch() throws {
        let g = standardGravity
        var service = OrientationService(pipeline: OrientationPipeline())
        #expect(service.wantsBaseSensor, "rotate-in tablet and no switch")
        service.attachBase(source: "iio:device1", mountMatrix: .identity)
        let display = Vector3(0, -g * sin(70 * Double.pi / 180), g * cos(70 * Double.pi / 180))
        for i in 0..<5 {
            let t = Double(i) * 0.02
            service.processBase(Sample(time: t, acceleration: Vector3(0, 0, g)))
            service.process(Sample(time: t + 0.01, acceleration: display))
        }
        let hinge = modeEvents(service.takeOutbox())
        #expect(hinge.map(\.decision) == [ModeReports.Decision(mode: .laptop, source: .hinge)])
        #expect(try #require(hinge.first?.hinge).distance(to: 110) < 1e-6)
        #expect(service.base == "iio:device1")

        service.reportSwitch("event7", .tablet)
        #expect(modeEvents(service.takeOutbox()).map(\.decision) == [ModeReports.Decision(mode: .tablet, source: .switch)])
        #expect(!service.wantsBaseSensor, "a switch answers: no second sensor")
        service.detachBase()
        #expect(modeEvents(service.takeOutbox()).isEmpty, "the switch still decides")
        #expect(service.base == nil && service.hinge == nil)

        service.reportSwitch("event7", nil)
        #expect(modeEvents(service.takeOutbox()).map(\.decision) == [nil], "no source answers: mode null")
        #expect(service.wantsBaseSensor)

        service.reconfigure(supported: .all, rotateIn: .always, parameters: ClassifierParameters(), suggestionTimeout: 10)
        #expect(!service.wantsBaseSensor, "with rotate-in always the mode moves nothing")
    }
}

extension Requester {
    static let socket = Requester(connection: "client 1", kind: "socket")
    static let stdin = Requester(connection: "standard input", kind: "stdin")
}
