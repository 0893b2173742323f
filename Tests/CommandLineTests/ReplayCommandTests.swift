import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

@Suite("orientd replay, end to end")
struct ReplayCommandTests {
    @Test("prints one valid JSON event per change, with the documented fields")
    func eventsOnStdout() throws {
        let scratch = try Scratch()
        let path = try scratch.write("turn.csv", Scratch.rotationRecording())
        let result = try OrientdProcess.run(["replay", "--fast", path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let events = try #require(result.events, "stdout must be NDJSON: \(result.stdout)")
        #expect(events.map { $0["device"] as? String } == ["portrait", "landscape-left", "face-up"])
        #expect(events.map { $0["screen"] as? String } == ["portrait-primary", "landscape-primary", "landscape-primary"])
        #expect(events.map { $0["xrandr"] as? String } == ["normal", "right", "right"])
        #expect(events.map { $0["cause"] as? String } == ["start", "sensor", "sensor"])
        #expect(events.allSatisfy { $0["event"] as? String == "orientation" && $0["version"] as? Int == 1 })
        let second = events[1]
        #expect(second["angle"] as? Int == 90)
        #expect(second["locked"] as? Bool == false)
        #expect(second["previous"] as? String == "portrait-primary")
        #expect(second["transform"] as? String == "270")
        #expect(second["hyprland"] as? Int == 3)
        // The turn is a step at 2 s after 2 s of stillness: at rest (2 readings a
        // second from 1.5 s on) it is seen at the next reading, up to 0.5 s later, and
        // decided a hold time after that; read at the full rate, within 0.3 s.
        let time = try #require(second["time"] as? Double)
        #expect(time > 2 && time <= 2 + 0.5 + 0.15, "\(time)")
        let full = try #require(try OrientdProcess.run(["replay", "--fast", "--full-rate", path]).events)
        let fullTime = try #require(full.dropFirst().first?["time"] as? Double)
        #expect(fullTime > 2 && fullTime <= 2.3, "\(fullTime)")
    }

    @Test(
        "as on a sensor that watches for motion (--watching-sensor, or a header that says it offers a change sensitivity): the turn from rest seen at once; evaluate reads fewer samples at rest"
    )
    func watchingSensor() throws {
        let scratch = try Scratch()
        let text = Scratch.rotationRecording()
        let path = try scratch.write("turn.csv", text)
        let watched = try #require(try OrientdProcess.run(["replay", "--fast", "--watching-sensor", path]).events)
        let time = try #require(watched.dropFirst().first?["time"] as? Double)
        // A step at 2 s: sent by the sensor at once, decided a hold time later, as at the
        // full rate (not up to a rest interval later).
        #expect(time > 2 && time <= 2.3, "\(time)")
        let offered = try scratch.write(
            "offered.csv", text.replacingOccurrences(of: "# rate-hz:", with: "# change-sensitivity: offered\n# rate-hz:"))
        let fromHeader = try OrientdProcess.run(["replay", "--fast", offered])
        #expect(
            fromHeader.events.map { $0.map { "\($0["device"] ?? "") \($0["time"] ?? "")" } }
                == watched.map { "\($0["device"] ?? "") \($0["time"] ?? "")" })
        let off = try #require(try OrientdProcess.run(["replay", "--fast", "--watching-sensor", "--change-sensitivity", "0", path]).events)
        #expect(off.dropFirst().first?["time"] as? Double != time, "change-sensitivity 0: the rest rate again")
        // evaluate's table: samples read a second at rest, on the bundled turns from rest.
        let recording = Repository.root.appendingPathComponent("Recordings/turned-after-lying-still.csv").path
        func stillRate(_ extra: [String]) throws -> Double {
            let table = try OrientdProcess.run(["evaluate", "--table"] + extra + [recording], executable: OrientdProcess.lab)
            let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("total") })
            return try #require(Double(row.split(separator: " ").last ?? ""), "\(row)")
        }
        let grid = try stillRate([])
        let watching = try stillRate(["--watching-sensor"])
        #expect(abs(grid - 2) < 0.2, "the rest rate, and the reads that woke it: \(grid)")
        #expect(watching < 1, "only what moved: \(watching)")
    }

    @Test("paced, faster, --fast and standard input give the same events")
    func sameEventsEveryWay() throws {
        let scratch = try Scratch()
        let text = Scratch.rotationRecording()
        let path = try scratch.write("turn.csv", text)
        let fast = try OrientdProcess.run(["replay", "--fast", path])
        let sped = try OrientdProcess.run(["replay", "--speed", "12", path])
        let piped = try OrientdProcess.run(["replay", "--fast", "-"], stdin: Data(text.utf8))
        #expect(fast.status == 0 && sped.status == 0 && piped.status == 0)
        #expect(!fast.stdout.isEmpty)
        #expect(sped.stdout == fast.stdout)
        #expect(piped.stdout == fast.stdout)
    }

    @Test("a lock keeps the screen; a disjoint lock wins with a warning")
    func locks() throws {
        let scratch = try Scratch()
        let path = try scratch.write("turn.csv", Scratch.rotationRecording())
        let portrait = try OrientdProcess.run(["replay", "--fast", "--lock", "portrait", path])
        let all = try #require(portrait.events)
        let events = all.filter { $0["event"] as? String == "orientation" }
        #expect(events.map { $0["screen"] as? String } == ["portrait-primary", "portrait-primary", "portrait-primary"])
        #expect(events.allSatisfy { $0["locked"] as? Bool == true })
        // Turned to landscape while locked: the rotation is suggested, then withdrawn when
        // the device goes back.
        let suggestions = all.filter { $0["event"] as? String == "suggestion" }
        #expect(suggestions.map { "\($0["state"]!) \($0["screen"]!)" } == ["offered landscape-primary", "withdrawn landscape-primary"])
        let none = try OrientdProcess.run(["replay", "--fast", "--lock", "portrait", "--suggestion-timeout", "0", path])
        #expect(try #require(none.events).allSatisfy { $0["event"] as? String == "orientation" }, "timeout 0: no suggestion")
        let landscape = try OrientdProcess.run(["replay", "--fast", "--lock", "landscape", path])
        #expect(try #require(landscape.events).first?["screen"] as? String == "landscape-primary", "the lock rotates at once")
        let disjoint = try OrientdProcess.run(["replay", "--fast", "--supported", "portrait", "--lock", "landscape-secondary", path])
        #expect(disjoint.status == 0)
        #expect(disjoint.stderr.contains("the lock wins"))
        #expect(try #require(disjoint.events).first?["screen"] as? String == "landscape-secondary")
    }

    @Test("--natural landscape renames the screen types, not the angles")
    func naturalLandscape() throws {
        let scratch = try Scratch()
        let path = try scratch.write("turn.csv", Scratch.rotationRecording())
        let events = try #require(try OrientdProcess.run(["replay", "--fast", "--natural", "landscape", path]).events)
        #expect(events.map { $0["screen"] as? String } == ["landscape-primary", "portrait-secondary", "portrait-secondary"])
        #expect(events.map { $0["angle"] as? Int } == [0, 90, 90])
    }

    @Test("the header's mount matrix is applied, and --mount-matrix overrides it")
    func mountMatrix() throws {
        let scratch = try Scratch()
        // The sensor is mounted a quarter turn round: raw = Mᵀ · corrected for M below.
        let m = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        let text = Scratch.rotationRecording(matrix: m.description) { m.transposed.apply($0) }
        let path = try scratch.write("mounted.csv", text)
        let applied = try #require(try OrientdProcess.run(["replay", "--fast", path]).events)
        #expect(applied.map { $0["device"] as? String } == ["portrait", "landscape-left", "face-up"])
        let overridden = try #require(try OrientdProcess.run(["replay", "--fast", "--mount-matrix", "1,0,0;0,1,0;0,0,1", path]).events)
        #expect(overridden.first?["device"] as? String == "landscape-left", "identity reads the raw axes, (−g, 0, 0.5)")
    }

    @Test("bad sample lines are skipped with FILE:LINE warnings; stdout stays NDJSON")
    func skippedLines() throws {
        let scratch = try Scratch()
        var lines = Scratch.rotationRecording().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[10] = "0.16,0.1,nan,0.2,portrait"
        lines[20] = "0.36,abc,-9.8,0.2,portrait"
        lines[30] = "0.56,0.1,-9.8"
        lines[40] = "0.1,0.1,-9.8,0.2,portrait"
        lines.insert(String(repeating: "9", count: 10000), at: 50)
        let path = try scratch.write("bad.csv", lines.joined(separator: "\n"))
        let result = try OrientdProcess.run(["replay", "--fast", path])
        #expect(result.status == 0)
        #expect(result.events?.count == 3)
        for (line, text) in [
            (11, "y is not finite ('nan')"), (21, "x 'abc' is not a number"), (31, "expected 5 fields"),
            (41, "time 0.100000 goes back from 0.720000"), (51, "line longer than 4096 bytes"),
        ] {
            #expect(result.stderr.contains("\(path):\(line): \(text)"), "line \(line): \(result.stderr)")
        }
        let strict = try OrientdProcess.run(["replay", "--fast", "--strict", path])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("\(path):11:"))
    }

    @Test("broken input stops with a message naming the place and the right exit status")
    func fatalInput() throws {
        let scratch = try Scratch()
        let missing = try OrientdProcess.run(["replay", scratch.directory.appendingPathComponent("nope.csv").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot open recording") && missing.stderr.contains("No such file or directory"))
        let directory = try OrientdProcess.run(["replay", scratch.directory.path])
        #expect(directory.status == 66)
        #expect(directory.stderr.contains("Is a directory"))
        let garbage = try OrientdProcess.run(["replay", "-"], stdin: Data("\u{0}\u{1}binary\u{FF}garbage\n".utf8))
        #expect(garbage.status == 65)
        #expect(garbage.stderr.contains("<stdin>:1: unknown column line"))
        #expect(garbage.stdout.isEmpty)
        let empty = try OrientdProcess.run(["replay", "-"], stdin: Data())
        #expect(empty.status == 65)
        #expect(empty.stderr.contains("<stdin>: empty input"))
        let zeroRow = try scratch.write("zero.csv", "# mount-matrix: 1, 0, 0; 0, 0, 0; 0, 0, 1\ntime,x,y,z\n0,0,-9.8,0\n")
        let zero = try OrientdProcess.run(["replay", zeroRow])
        #expect(zero.status == 65)
        #expect(zero.stderr.contains("\(zeroRow):1: mount-matrix: row 2 is all zeros"))
        let version = try scratch.write("v2.csv", "# orientd-recording 2\ntime,x,y,z\n")
        let v2 = try OrientdProcess.run(["replay", version])
        #expect(v2.status == 65)
        #expect(v2.stderr.contains("\(version):1: unsupported recording version 2"))
    }

    @Test("odd mount matrices are used with a warning that says what is odd")
    func oddMatrix() throws {
        let scratch = try Scratch()
        let text = Scratch.rotationRecording(matrix: "1, 0, 0; 0, -1, 0; 1, 0, 0") { Vector3($0.x, -$0.y, $0.x) }
        let path = try scratch.write("singular.csv", text)
        let result = try OrientdProcess.run(["replay", "--fast", path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(path):3: mount-matrix: the matrix is singular"))
    }

    @Test("bad options are refused with the option's name (exit 64)")
    func badOptions() throws {
        let cases: [([String], String)] = [
            (["replay", "--speed", "0", "x.csv"], "--speed must be a number > 0"),
            (["replay", "--hold-time=-1", "x.csv"], "--hold-time: must be a finite number ≥ 0"),
            (["replay", "--face-exit-tilt", "80", "x.csv"], "--face-exit-tilt: must not exceed face-enter-tilt"),
            (["replay", "--lock", "", "x.csv"], "--lock: an orientation must be given"),
            (["replay", "--supported", "sideways", "x.csv"], "--supported: unknown orientation 'sideways'"),
            (["replay", "--mount-matrix", "1,0,0", "x.csv"], "--mount-matrix: mount matrix '1,0,0' has 1 row(s)"),
            (["replay", "--mount-matrix", "0,0,0;0,1,0;0,0,1", "x.csv"], "--mount-matrix: row 1 is all zeros"),
            (["replay", "--natural", "diagonal", "x.csv"], "--natural"),
        ]
        for (arguments, message) in cases {
            let result = try OrientdProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test("a consumer that closes its end ends the replay cleanly with status 0 and a note")
    func consumerGone() throws {
        let scratch = try Scratch()
        let path = try scratch.write("turn.csv", Scratch.rotationRecording())
        let process = Process()
        process.executableURL = OrientdProcess.executable
        process.arguments = ["replay", path]  // paced: the second event is 2 s in
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.start()
        // Read the first line, then hang up.
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        try out.fileHandleForReading.close()
        process.waitForEnd()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(String(decoding: first, as: UTF8.self).contains("\"cause\":\"start\""))
        #expect(process.terminationReason == .exit, "not killed by SIGPIPE")
        #expect(process.terminationStatus == 0)
        #expect(stderr.contains("standard output was closed by its reader"))
    }

    @Test("standard input is left blocking after the run, also after its end of file: the shell shares it")
    func standardInputRestored() throws {
        // A terminal that orientd leaves non-blocking breaks the user's shell ("read error:
        // Resource temporarily unavailable"); a pipe whose read end the test keeps shows
        // the same flag, as the flag belongs to the open file both share.
        let scratch = try Scratch()
        let path = try scratch.write("rotation.csv", Scratch.rotationRecording())
        for commands in ["status\n", nil] {
            let input = Pipe()
            // The test's own reference to the read end's open file (Process closes the
            // parent's copy of the child's end).
            let kept = dup(input.fileHandleForReading.fileDescriptor)
            defer { close(kept) }
            let process = Process()
            process.executableURL = OrientdProcess.executable
            process.arguments = ["replay", "--speed", "8", path]
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.start()
            if let commands {
                input.fileHandleForWriting.write(Data(commands.utf8))
                try input.fileHandleForWriting.close()  // end of file while it runs
            }
            process.waitForEnd()
            #expect(process.terminationStatus == 0)
            let flags = fcntl(kept, F_GETFL)
            #expect(flags >= 0 && flags & O_NONBLOCK == 0, "stdin left non-blocking (commands: \(commands ?? "none, still open"))")
        }
    }

    @Test("help teaches: every option and an example")
    func help() throws {
        let top = try OrientdProcess.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("orientd replay Recordings/"))
        for command in ["replay", "explain"] {
            #expect(top.stdout.contains(command))
        }
        // The laboratory's commands are not the installed program's.
        #expect(!top.stdout.contains("evaluate"), "\(top.stdout)")
        let lab = try OrientdProcess.run(["--help"], executable: OrientdProcess.lab)
        for command in ["simulate", "evaluate"] {
            #expect(lab.stdout.contains(command), "orientd-lab --help lacks \(command)")
        }
        let replay = try OrientdProcess.run(["replay", "--help"])
        for option in [
            "--fast", "--speed", "--strict", "--supported", "--lock", "--natural", "--mount-matrix",
            "--magnitude-tolerance", "--filter-time-constant", "--disturbance-threshold", "--settle-time",
            "--hold-time", "--initial-hold-time", "--minimum-samples", "--rotation-hysteresis",
            "--initial-margin", "--face-enter-tilt", "--face-exit-tilt", "--face-hold-time", "--face-sure-tilt", "--gap-reset",
            "--flat-settle-time", "--walking-return-time", "Examples:",
        ] {
            #expect(replay.stdout.contains(option), "replay --help lacks \(option)")
        }
        #expect(try OrientdProcess.run(["--version"]).stdout.hasPrefix("0."))
    }
}

@Suite("orientd-lab evaluate, end to end")
struct EvaluateCommandTests {
    @Test("passes a correctly labelled recording and fails a mislabelled one, naming the violation")
    func verdicts() throws {
        let scratch = try Scratch()
        let good = try scratch.write("good.csv", Scratch.rotationRecording())
        let wrong = try scratch.write("wrong.csv", Scratch.rotationRecording().replacingOccurrences(of: ",face-up", with: ",face-down"))
        let pass = try OrientdProcess.run(["evaluate", good], executable: OrientdProcess.lab)
        #expect(pass.status == 0)
        #expect(pass.stdout.contains("PASS  \(good): 3 stretches, 3 changes"))
        let fail = try OrientdProcess.run(["evaluate", good, wrong], executable: OrientdProcess.lab)
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("FAIL  \(wrong)"))
        #expect(fail.stdout.contains("spurious change landscape-left → face-up"))
        #expect(fail.stdout.contains("face-down never reported"))
        #expect(fail.stdout.contains("1 passed, 1 failed"))
    }

    @Test("--targets judges the totals: met on the bundled recording of handling, crossed by a slower classifier")
    func targets() throws {
        let recording = Repository.root.appendingPathComponent("Recordings/lifted-and-turned-in-the-hand.csv").path
        let met = try OrientdProcess.run(["evaluate", "--targets", recording], executable: OrientdProcess.lab)
        #expect(met.status == 0, "\(met.stdout)")
        #expect(met.stdout.contains("targets: all met"), "\(met.stdout)")
        // A recording that fails its labels alone does not fail the targets; a p95 over
        // 250 ms does, named.
        let crossed = try OrientdProcess.run(
            ["evaluate", "--table", "--targets", "--hold-time", "0.4", recording], executable: OrientdProcess.lab)
        #expect(crossed.status == 1, "\(crossed.stdout)")
        #expect(crossed.stdout.contains("target crossed: pose: p95 latency "), "\(crossed.stdout)")
        #expect(crossed.stdout.contains(", at most 250 ms"), "\(crossed.stdout)")
        #expect(crossed.stdout.contains("targets: 1 crossed"), "\(crossed.stdout)")
        // A recording that cannot be read leaves the targets unjudged, and fails.
        let unread = try OrientdProcess.run(
            ["evaluate", "--targets", recording, "/nonexistent/recording.csv"], executable: OrientdProcess.lab)
        #expect(unread.status == 1, "\(unread.stdout)")
        #expect(unread.stdout.contains("ERROR /nonexistent/recording.csv: cannot open recording"), "\(unread.stdout)")
        #expect(unread.stdout.contains("targets: not judged: 1 recording could not be read"), "\(unread.stdout)")
    }
}
