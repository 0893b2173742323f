import Foundation
import OrientdCore
import OrientdLinux
import OrientdTestSupport
import Testing

/// The adaptive rate's fallback on a buffered sensor that cannot go as slow as the rest
/// rate: under umockdev, because a real kernel's HID hub (`Tests/RealKernelTests`) takes
/// any rate, and a fake's scans come at its script's pace whatever rate is set, as a
/// sensor on an hrtimer trigger's would.
extension LiveSensorTests {
    @Test(
        "buffered, slowest rate above the rest rate: lowered to it at rest, read twice a second though it sends 100, and raised at the turn"
    )
    func adaptiveRateOnAFastSensor() async throws {
        let bed = Testbed()
        try bed.add(fixture("buffered-accel-100hz.umockdev"))
        // Upright for 4 s, landscape for 4 s, upright again for 4: 100 scans a second. The
        // last third leaves room for the rest after the turn back, however late a slow
        // build (a sanitizer's, beside a guest) notices the turn.
        let scratch = try Scratch()  // removed with the test process's temporary files
        let script = scratch.directory.appendingPathComponent("stream.script")
        try Self.stream(seconds: 12, rate: 100).write(to: script)
        try bed.loadScript(device: "/dev/iio:device0", path: script.path)
        let attribute = bed.root + "/sys/devices/platform/bmc150-accel.0/iio:device0/sampling_frequency"
        var events: [(pace: AdaptiveRate.Pace, hz: Double, time: Double)] = []
        // Times from the first scan's: the stream's own clock (one scan interval late).
        var first: Double?
        var lastTime = 0.0
        let seen = await collect(configuration(rate: 100, adaptiveRate: AdaptiveRateParameters()), seconds: TestTime.wait(20)) { event in
            switch event {
            case .sample(let s), .still(let s):
                first = first ?? s.time - 0.01
                lastTime = s.time - (first ?? 0)
            case .pace(_, let pace, let hz):
                events.append((pace, hz, lastTime))
            default: break
            }
            return events.count == 6 || lastTime >= 11.9
        }
        withExtendedLifetime(scratch) {}
        let origin = first ?? 0
        let stills = seen.compactMap { if case .still(let s) = $0 { s.time - origin } else { nil } }
        let classified = seen.compactMap(\.sample).map { $0.time - origin }
        // Full at the start, rest once still, full at the turn (4 s), rest, full at the
        // turn back (8 s), rest.
        #expect(
            events.map(\.pace) == [.full, .rest, .full, .rest, .full, .rest], "\(events) \(seen.count) events, the last \(seen.suffix(3))")
        // The rate each pace brought, as the reader read it back after setting it (the
        // attribute itself is read once the reader has ended: a consumer of the events may
        // lag behind the reader, and the file has changed again by then).
        #expect(events.map(\.hz) == [100, 12.5, 100, 12.5, 100, 12.5], "\(events)")
        let written = (try? String(contentsOfFile: attribute, encoding: .utf8)) ?? "?"
        // libiio writes the value with its terminating NUL; a kernel would stop there.
        let restored = written.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        #expect(restored == "100", "the full rate is restored when reading ends: \(written)")
        // Noticed within 0.6 s: the next reading at rest, and the reader's own wake-up,
        // which is a wait (TestTime scales it in a sanitizer's build).
        let turns = events.filter { $0.pace == .full }.dropFirst().map(\.time)
        let late = TestTime.wait(0.6)
        #expect(
            turns.count == 2 && zip(turns, [4.0, 8.0]).allSatisfy { $0 - $1 >= 0 && $0 - $1 <= late }, "\(turns), at most \(late) s late")
        // At rest: two readings a second, though 100 scans come.
        let restStart = events[1].time
        let firstRest = stills.filter { $0 > restStart && $0 < 4 }
        let seconds = 4 - restStart
        #expect(Double(firstRest.count) <= 2 * seconds + 1 && Double(firstRest.count) >= 2 * seconds - 1, "\(firstRest)")
        #expect(classified.filter { $0 > restStart && $0 < 3.95 }.isEmpty, "nothing classified at rest")
    }

    /// A still-then-turned stream (Tests/Fixtures/umockdev/make-stream.py): bytes, not
    /// text (scans are binary).
    static func stream(seconds: Int, rate: Int) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", fixtures.appendingPathComponent("make-stream.py").path, "\(seconds)", "\(rate)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.start()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitForEnd()
        guard process.terminationStatus == 0 else { throw TestbedError(description: "make-stream.py failed") }
        return data
    }
}
