import Foundation
import OrientdTestSupport
import Testing

/// A sensor misbehaving on the real kernel (issue 36): what orientd notices, says and does.
extension RealKernelTests {
    /// The HID sensor hub (nil) and an I2C chip on i2c-stub where the guest has it.
    static let garbageDevices: [String?] = hasI2CStub ? [nil, "kxcjk1013"] : [nil]

    @Test(
        "garbage through the real driver (all zero, then saturated counts): no turn from it, one warning and one note an episode naming the device; the turn after reported",
        .beyondTheCore, arguments: garbageDevices)
    func garbage(driver: String?) throws {
        let g = 9.80665
        // Portrait, all zero, portrait, ±32767 counts of a HID hub (a chip's full scale
        // on I2C), then landscape-left: 3 s each.
        let scratch = try Scratch()
        let path = try scratch.write(
            "garbage.csv",
            Self.stillRecording(
                [(0, -g, 0), (0, 0, 0), (0, -g, 0), (327.67, 327.67, -327.67), (-g, 0, 0), (-g, 0, 0)], seconds: 3))
        let play = try Guest.play(path, driver.map { ["--driver", $0] } ?? [])
        try Self.expectSameAsReplay(path, play: play)
        let orientations = (play.events ?? []).filter { $0["event"] as? String == "orientation" }.compactMap { $0["device"] as? String }
        #expect(orientations == ["portrait", "landscape-left"], "\(play.stdout)")
        let journal = try Guest.run(
            """
            journalctl -b -o cat --no-pager _SYSTEMD_INVOCATION_ID=$(systemctl show -p InvocationID --value orientd) | grep -v '^{'
            echo "restarts: $(systemctl show -p NRestarts --value orientd)"
            """)
        let lines = journal.stdout.split(separator: "\n").map(String.init)
        let began = lines.filter { $0.contains("implausible readings since") }
        let ended = lines.filter { $0.contains("plausible readings again") }
        #expect(began.count == 2 && ended.count == 2, "an episode each, begun and ended:\n\(journal.stdout)")
        #expect(began.first?.contains("all zero") == true && began.last?.contains(" g, beyond") == true, "\(began)")
        #expect(began.allSatisfy { $0.contains("iio:device") }, "naming the device: \(began)")
        #expect(journal.stdout.contains("restarts: 0"), "\(journal.stdout)")
        print("real kernel, \(Guest.name), \(driver ?? "HID hub"): \((began + ended).joined(separator: " | "))")
    }
}
