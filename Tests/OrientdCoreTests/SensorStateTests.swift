import Foundation
import OrientdCore
import Testing

@Suite("A sensor's state: one vocabulary for its reader, its subscribers, the journal and doctor")
struct SensorStateTests {
    static let every: [SensorState] = [
        .attached(name: "bmc150_accel", location: .display, read: .buffered, rate: 50), .stalled(seconds: 2.25),
        .hung(seconds: 3), .resumed(afterSeconds: 12.5), .lost(reason: "removed"), .idle, .reading(read: .buffered),
        .reading(read: .polled, because: "its buffer sends nothing"),
    ]

    @Test("each state's event carries its name, its device and its time, in that order")
    func eventNames() throws {
        for state in Self.every {
            let line = String(decoding: SensorStateEvent(state, device: "iio:device3", time: 4.5).jsonLine, as: UTF8.self)
            #expect(line.hasPrefix(#"{"event":"sensor","state":"\#(state.name)","time":4.5,"device":"iio:device3""#), "\(line)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["state"] as? String == state.name)
        }
        #expect(Set(Self.every.map(\.name)) == ["attached", "stalled", "hung", "resumed", "lost", "idle", "reading"])
    }

    @Test("the journal warns of a lost, silent or hung sensor and notes the rest; the attached line is the sensor's own")
    func words() {
        let said = Self.every.map { $0.words(device: "iio:device3") }
        #expect(said[0] == nil)
        #expect(said[1] == .warning("iio:device3 has sent nothing for 2.3 s; still waiting for it"))
        #expect(said[2] == .warning(BufferSilence.hungWarning("iio:device3", seconds: 3)))
        #expect(said[3] == .note("iio:device3 sends again after 12.5 s"))
        #expect(said[4] == .warning("iio:device3 lost: removed; waiting for it to return"))
        #expect(said[5] == .note("iio:device3 is not read: nothing consumes the events (no subscriber, no hook, output to the journal)"))
        #expect(said[6] == .note("iio:device3 is read buffered: something consumes the events again"))
        #expect(said[7] == .note("iio:device3 is read polled: its buffer sends nothing"))
    }

    @Test("every trouble the daemon writes in status, doctor reads back as the same kind; one it does not know, as stalled")
    func troubleRoundTrip() throws {
        let troubles: [SensorTrouble] = [
            .stalled(device: "iio:device0", since: 1), .hung(device: "iio:device0", since: 1),
            .polledInstead(device: "iio:device0", since: 1), .frozen(device: "iio:device0", since: 1),
        ]
        for trouble in troubles {
            var json = JSONLineWriter()
            trouble.add(to: &json, now: 13)
            let read = try JSONDecoder().decode(DaemonStatus.Trouble.self, from: Data(json.line()))
            #expect(read.kind == trouble.kind, "\(read)")
            #expect(read.device == "iio:device0" && read.silent == 12)
        }
        let newer = DaemonStatus.Trouble(state: "melted", device: "iio:device0", silent: 3)
        #expect(newer.kind == nil)
        let finding = DaemonCheck.judge(DaemonStatus(type: "portrait-primary", device: "portrait", sensorTrouble: newer)) { _ in true }
        #expect(finding.first?.verdict == .problem && finding.first?.detail.contains("(stalled)") == true, "\(finding)")
    }
}
