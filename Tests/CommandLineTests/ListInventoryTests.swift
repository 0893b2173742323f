import Foundation
import OrientdCore
import SystemPackage
import Testing

@testable import orientd

/// `orientd list`'s two renderers, from plain values: what the live tests
/// (LiveCommandTests, ConvertibleTests) cannot make, a sensor that could not be opened,
/// a switch that cannot be read, nothing found.
@Suite("orientd list's text and JSON")
struct ListInventoryTests {
    static let g = 9.80665

    static func candidate(_ id: String, _ location: SensorLocation) -> AccelerometerCandidate {
        AccelerometerCandidate(id: id, name: "hid-sensor-accel-3d", label: nil, location: location, locationSource: "udev ACCEL_LOCATION")
    }

    @Test("nothing found: where discovery looked and how to replay instead; an empty array; run would read none")
    func nothingFound() {
        let inventory = ListInventory(
            accelerometers: [], choice: .failure(SensorChoice.Failure(description: "no accelerometer found")), base: nil,
            switches: [], searchedPlaces: "udev's iio subsystem")
        #expect(
            inventory.text == """
                No accelerometer found (looked in udev's iio subsystem).
                Without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv

                """)
        #expect(inventory.json == "[]\n")
        #expect(inventory.chosen == nil)
    }

    @Test("a 2-in-1 whose sensors could not be opened but read once, and a switch that cannot be read: each says so")
    func twoInOne() throws {
        let display = Self.candidate("iio:device0", .display)
        let base = Self.candidate("iio:device1", .base)
        // The display opened to 100° over a base lying flat (docs/layers.md's hinge frame).
        let fold = 80 * Double.pi / 180
        let inventory = ListInventory(
            accelerometers: [
                .init(
                    candidate: display, error: "iio:device0: buffer: Permission denied",
                    reading: Vector3(0, -Self.g * sin(fold), Self.g * cos(fold))),
                .init(candidate: base, error: "iio:device1: buffer: Permission denied", reading: Vector3(0, 0, Self.g)),
            ],
            choice: .success(display), base: base,
            switches: [
                (
                    node: "/dev/input/event7",
                    result: .success((TabletModeSwitch(id: "event7", name: "Intel Virtual Switches", node: "/dev/input/event7"), .laptop))
                ),
                (node: "/dev/input/event9", result: .failure(Errno.permissionDenied)),
            ],
            searchedPlaces: "")
        let angle = try #require(inventory.hinge.angle)
        #expect(abs(angle - 100) < 0.01)
        let lines = inventory.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Tablet-mode switch event7 (Intel Virtual Switches) at /dev/input/event7: laptop")
        #expect(lines[1].hasPrefix("Tablet-mode switch at /dev/input/event9: cannot be read: "), "\(lines)")
        #expect(lines.contains("* iio:device0  hid-sensor-accel-3d"), "\(lines)")
        #expect(lines.contains("  iio:device1  hid-sensor-accel-3d"), "\(lines)")
        #expect(lines.contains("    error             iio:device1: buffer: Permission denied"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Hinge angle: 100° (laptop by this one reading") }, "\(lines)")
        #expect(lines.suffix(2) == ["* is the one 'orientd run' reads.", ""], "\(lines)")

        let array = try #require(try JSONSerialization.jsonObject(with: Data(inventory.json.utf8)) as? [[String: Any]])
        #expect(array.map { $0["kind"] as? String } == ["accelerometer", "accelerometer", "switch", "switch"])
        #expect(array.map { $0["chosen"] as? Bool } == [true, false, nil, nil])
        #expect(array[0]["hinge"] == nil, "only the base carries the hinge: \(array[0])")
        #expect(array[1]["hinge"] as? Double == 100)
        #expect(array[1]["error"] as? String == "iio:device1: buffer: Permission denied")
        #expect(array[1]["reading"] as? [String] == ["0", "0", "9.807"])
        #expect(array[2]["mode"] as? String == "laptop" && array[2]["device"] as? String == "event7")
        #expect((array[3]["error"] as? String)?.isEmpty == false, "\(array[3])")
    }

    @Test("a display sensor not found: which one run would read none, and why; the hinge unknown without both readings")
    func noneChosen() {
        let base = Self.candidate("iio:device1", .base)
        let inventory = ListInventory(
            accelerometers: [.init(candidate: base, error: "no such device")],
            choice: .failure(SensorChoice.Failure(description: "only a base accelerometer")), base: base, switches: [],
            searchedPlaces: "")
        #expect(inventory.chosen == nil)
        #expect(
            inventory.text.hasSuffix("Hinge angle: unknown: a sensor gave no reading\n'run' would read none: only a base accelerometer\n"))
        #expect(inventory.json.contains(#""hinge":null"#))
    }
}
