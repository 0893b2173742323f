import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

@Suite("orientd explain")
struct ExplainCommandTests {
    /// `time device screen (cause)`, as an orientation event of replay would be explained.
    static func head(of event: [String: Any]) -> String {
        var time: [UInt8] = []
        JSONLineWriter.appendNumber(event["time"] as? Double ?? .nan, decimals: 6, to: &time)
        return "\(String(decoding: time, as: UTF8.self)) \(event["device"]!) \(event["screen"]!) (\(event["cause"]!)):"
    }

    @Test(
        "each bundled recording: one line for each orientation event replay prints, with its time", arguments: OneReplayPathTests.recordings
    )
    func sameEvents(path: String) throws {
        let replayed = try OrientdProcess.run(["replay", "--fast", path])
        let events = try #require(replayed.events).filter { $0["event"] as? String == "orientation" }
        let explained = try OrientdProcess.run(["explain", path])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(!events.isEmpty)
        #expect(explained.lines.map { String($0.prefix { $0 != ":" }) + ":" } == events.map(Self.head), "\(path)")
        for (line, event) in zip(explained.lines, events) {
            let why = line.drop { $0 != ":" }
            if ["start", "sensor"].contains(event["cause"] as? String) {
                #expect(why.contains("the readings argued for \(event["device"]!) from "), "\(line)")
            }
            #expect(why.contains("the screen "), "\(line)")
        }
    }

    @Test("a disturbed turn names the disturbance and the walk; the flags replay takes change the answer as they change replay's")
    func reasons() throws {
        let walk = Repository.root.appendingPathComponent("Recordings/turned-to-landscape-while-walking.csv").path
        let explained = try OrientdProcess.run(["explain", walk])
        let turn = try #require(explained.lines.first { $0.contains(" landscape-left ") })
        #expect(turn.contains("carried by someone walking") && turn.contains("to settle (settle-time)"), "\(turn)")
        let locked = try OrientdProcess.run(["explain", "--lock", "portrait", walk])
        let held = try #require(locked.lines.first { $0.contains(" landscape-left ") })
        #expect(held.hasSuffix("the screen stays portrait-primary: the rotation lock holds it."), "\(held)")
        let slow = try OrientdProcess.run(["explain", "--hold-time", "0.4", walk])
        #expect(slow.lines.contains { $0.contains("its hold of 0.4 s (hold-time)") }, "\(slow.stdout)")
    }

    @Test("--at: the state of the evidence at each moment asked for, in time order")
    func moments() throws {
        let path = Repository.root.appendingPathComponent("Recordings/lifted-and-turned-in-the-hand.csv").path
        let result = try OrientdProcess.run(["explain", "--at", "999", "--at", "35.1", "--at", "3", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 3, "\(result.stdout)")
        #expect(result.lines.map { String($0.prefix { $0 != " " }) } == ["3", "35.1", "999"])
        #expect(result.lines[1].contains("reported face-up") && result.lines[1].contains("the readings argued for landscape-left"))
        #expect(result.lines[1].contains("now it waits for the device to rest from lying flat"), "\(result.lines[1])")
        #expect(
            result.lines[2].contains("the readings argue for no other pose")
                && result.lines[2].contains("last reading classified at 37.02 s"))
    }

    @Test("--svg writes a chart with every event; standard output is unchanged")
    func svg() throws {
        let scratch = try Scratch()
        let path = Repository.root.appendingPathComponent("Recordings/turned-to-landscape-while-walking.csv").path
        let chart = scratch.directory.appendingPathComponent("walk.svg").path
        let plain = try OrientdProcess.run(["explain", path])
        let drawn = try OrientdProcess.run(["explain", path, "--svg", chart])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.stdout == plain.stdout)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == plain.lines.count)
        // Well-formed, read by an XML parser that is not ours: Python's.
        let parsed = try OrientdProcess.runShell([
            "python3", "-c", "import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().tag)", chart,
        ])
        #expect(parsed.status == 0 && parsed.stdout == "{http://www.w3.org/2000/svg}svg\n", "\(parsed.stderr)")
    }

    @Test("bad input: a message naming the place and the right exit status; bad lines are skipped")
    func badInput() throws {
        let scratch = try Scratch()
        let missing = try OrientdProcess.run(["explain", scratch.directory.appendingPathComponent("nope.csv").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot open recording") && missing.stderr.contains("nope.csv"))
        let version = try scratch.write("v2.csv", "# orientd-recording 2\ntime,x,y,z\n")
        let v2 = try OrientdProcess.run(["explain", version])
        #expect(v2.status == 65)
        #expect(v2.stderr.contains("\(version):1: unsupported recording version 2"), "\(v2.stderr)")
        var lines = Scratch.rotationRecording().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[10] = "0.2,nan,x,1"
        let bad = try scratch.write("bad.csv", lines.joined(separator: "\n"))
        let skipped = try OrientdProcess.run(["explain", bad])
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("\(bad):11:"), "\(skipped.stderr)")
        #expect(skipped.lines.count >= 2)
        let good = try scratch.write("good.csv", Scratch.rotationRecording())
        let unwritable = try OrientdProcess.run([
            "explain", good, "--svg", scratch.directory.appendingPathComponent("no/such/dir.svg").path,
        ])
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr.contains("cannot write") && unwritable.stderr.contains("no/such/dir.svg"), "\(unwritable.stderr)")
        let negative = try OrientdProcess.run(["explain", good, "--at=-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--at must be a number of seconds ≥ 0"), "\(negative.stderr)")
    }
}
