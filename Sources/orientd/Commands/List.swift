import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdLinux
import SystemPackage

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every accelerometer orientd can see, and which one 'run' would read.",
        discussion: """
            For each: IIO device, name, label, location (display or base) and where that \
            came from, mount matrix and its source, scale and offset and their sources, \
            sampling frequency, whether it is read buffered or polled, and one reading \
            after calibration and mount matrix. On a 2-in-1: the hinge angle the display \
            and base sensors give now, and the tablet-mode switches with their position. \
            Nothing is changed on the devices. Exit status 0 when 'run' would find a \
            display accelerometer to read, 69 (as 'run' exits) when it would not, after \
            printing what it found.

            Examples:
              orientd list
              orientd list --json | jq -r '.[] | select(.chosen) | .device'
              orientd list --uri ip:192.168.1.20
            """
    )

    @Flag(help: ArgumentHelp("Print a JSON array instead of text.", discussion: "Example: orientd list --json | jq ."))
    var json = false

    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Calibration") var baseMountMatrix: BaseMountMatrixOption

    func run() throws {
        let diagnostics = Diagnostics()
        let discovery = AccelerometerDiscovery(uri: sensor.uri, mountMatrixOverride: try mountMatrix.matrix, rate: sensor.rate)
        let baseDiscovery = AccelerometerDiscovery(uri: sensor.uri, mountMatrixOverride: try baseMountMatrix.matrix, rate: sensor.rate)
        let found: [AccelerometerDiscovery.Found]
        do {
            found = try discovery.find()
        } catch {
            diagnostics.error("cannot list accelerometers: \(error)")
            throw ExitCode(ExitStatus.unavailable)
        }
        let choice = SensorChoice.choose(from: found.map(\.candidate), requested: sensor.device)
        let chosen = try? choice.get()
        let base = SensorChoice.chooseBase(from: found.map(\.candidate), candidate: { $0 })
        var infos: [(AccelerometerInfo?, AccelerometerDiscovery.Found, String?)] = []
        var readings: [String: Vector3] = [:]
        if !found.isEmpty {
            do {
                let context = try IIOContext(uri: sensor.uri)
                for f in found {
                    do {
                        let opener = f.candidate.location == .base ? baseDiscovery : discovery
                        let (info, device) = try opener.open(f, in: context, configure: false)
                        infos.append((info, f, nil))
                        readings[f.candidate.id] = opener.reading(of: info, device: device, udev: f.udev)
                    } catch {
                        infos.append((nil, f, "\(error)"))
                    }
                }
            } catch {
                infos = found.map { (nil, $0, "\(error)") }
            }
        }
        let hinge = Hinge(display: chosen.flatMap { readings[$0.id] }, base: base.flatMap { readings[$0.id] }, hasBase: base != nil)
        let switches = sensor.uri == nil ? (try? SwitchDiscovery.survey()) ?? [] : []
        if json {
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (i, (info, f, error)) in infos.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                var w = JSONLineWriter()
                w.add("device", f.candidate.id)
                w.add("name", f.candidate.name)
                w.add("label", f.candidate.label)
                w.add("location", f.candidate.location.rawValue)
                w.add("locationSource", f.candidate.locationSource)
                w.add("kind", "accelerometer")
                w.add("chosen", f.candidate == chosen)
                if let r = readings[f.candidate.id] {
                    w.add("reading", strings: [r.x, r.y, r.z].map { JSONLineWriter.number($0, decimals: 3) })
                } else {
                    w.addNull("reading")
                }
                if f.candidate == base {
                    if let angle = hinge.angle { w.add("hinge", angle, decimals: 1) } else { w.addNull("hinge") }
                }
                if let info {
                    w.add("mountMatrix", info.mountMatrix.description)
                    w.add("mountMatrixSource", info.mountMatrixSource.rawValue)
                    w.add("scale", strings: [info.calibration.scale.x, info.calibration.scale.y, info.calibration.scale.z].map { "\($0)" })
                    w.add("scaleSource", info.calibration.scaleSource)
                    w.add("offsetSource", info.calibration.offsetSource)
                    if let f = info.samplingFrequency { w.add("samplingFrequency", f, decimals: 3) } else { w.addNull("samplingFrequency") }
                    w.add("samplingFrequencyAvailable", info.samplingFrequencyAvailable)
                    w.add("changeSensitivity", info.changeSensitivity != nil)
                    w.add("read", info.readPath.rawValue)
                    w.add("polledBecause", info.polledBecause)
                    w.add("path", info.location)
                    w.add("warnings", strings: info.issues.map(\.description))
                } else {
                    w.add("error", error)
                }
                var line = w.line()
                line.removeLast()  // newline
                out.append(contentsOf: line)
            }
            for (node, result) in switches {
                var w = JSONLineWriter()
                w.add("kind", "switch")
                w.add("node", node)
                switch result {
                case .success(let (found, mode)):
                    w.add("device", found.id)
                    w.add("name", found.name)
                    w.add("mode", mode.rawValue)
                case .failure(let error):
                    w.add("error", "\(error)")
                }
                var line = w.line()
                line.removeLast()
                if out.count > 1 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: line)
            }
            out.append(contentsOf: Array("]\n".utf8))
            print(String(decoding: out, as: UTF8.self), terminator: "")
            return try Self.exitUnlessRunReads(chosen)
        }
        printSwitches(switches)
        if found.isEmpty {
            print("No accelerometer found (looked in \(discovery.searchedPlaces)).")
            print("Without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv")
            return try Self.exitUnlessRunReads(chosen)
        }
        for (info, f, error) in infos {
            let c = f.candidate
            print("\(c == chosen ? "*" : " ") \(c.id)  \(c.name ?? "(no name)")\(c.label.map { "  label \($0)" } ?? "")")
            print("    location          \(c.location.rawValue) (\(c.locationSource))")
            guard let info else {
                print("    error             \(error ?? "")")
                continue
            }
            print("    read              \(info.readPath.rawValue)\(info.polledBecause.map { " (\($0))" } ?? "")")
            print("    mount matrix      \(info.mountMatrix) (\(info.mountMatrixSource.rawValue))")
            let s = info.calibration.scale
            print(
                "    scale             \(s.x == s.y && s.y == s.z ? "\(s.x)" : "\(s.x), \(s.y), \(s.z)") m/s² per count (\(info.calibration.scaleSource))"
            )
            let o = info.calibration.offset
            print("    offset            \(o == .zero ? "0" : "\(o.x), \(o.y), \(o.z)") (\(info.calibration.offsetSource))")
            print(
                "    sampling          \(info.samplingFrequency.map { "\($0) Hz" } ?? "not given")\(info.samplingFrequencyAvailable.map { " (offers \($0))" } ?? "")"
            )
            print(
                "    at rest           "
                    + (info.changeSensitivity != nil && info.readPath == .buffered
                        ? "watches for motion itself (\(ChangeSensitivity.attribute)): sends only what moves"
                        : "read at the rest rate (no change sensitivity)"))
            print("    path              \(info.location)")
            let reading = readings[c.id].map {
                "\(Self.format($0.x)), \(Self.format($0.y)), \(Self.format($0.z)) m/s² (after the mount matrix)"
            }
            print("    reading           \(reading ?? "none (read through its buffer only)")")
            for issue in info.issues { print("    warning           \(issue)") }
        }
        if hinge.hasBase { print("Hinge angle: \(hinge.description)") }
        if case .failure(let why) = choice {
            print("'run' would read none: \(why)")
        } else {
            print("* is the one 'orientd run' reads.")
        }
        try Self.exitUnlessRunReads(chosen)
    }

    /// list's status answers "would run find a sensor?" as run's does: 69 when it would
    /// not, so a script can ask `orientd list >/dev/null` before it starts run.
    private static func exitUnlessRunReads(_ chosen: AccelerometerCandidate?) throws {
        if chosen == nil { throw ExitCode(ExitStatus.unavailable) }
    }

    static func format(_ v: Double) -> String { JSONLineWriter.number(v, decimals: 2) }

    private func printSwitches(_ switches: [(node: String, result: Result<(TabletModeSwitch, DeviceMode), Errno>)]) {
        for (node, result) in switches {
            switch result {
            case .success(let (found, mode)):
                print("Tablet-mode switch \(found.id) (\(found.name)) at \(node): \(mode.rawValue)")
            case .failure(let error):
                print("Tablet-mode switch at \(node): cannot be read: \(error)")
            }
        }
    }

    /// The hinge angle from one reading of each sensor, as `run` computes it.
    struct Hinge: CustomStringConvertible {
        var display: Vector3?
        var base: Vector3?
        var hasBase: Bool

        var angle: Double? {
            guard let display, let base else { return nil }
            return HingeAngle.degrees(base: base, display: display)
        }

        var description: String {
            if let angle {
                let mode: DeviceMode = angle > HingeTracker.tabletAbove ? .tablet : .laptop
                return
                    "\(JSONLineWriter.number(angle, decimals: 1))° (\(mode.rawValue) by this one reading; near 0° or 360° it cannot tell closed from folded flat)"
            }
            if display == nil || base == nil { return "unknown: a sensor gave no reading" }
            return "undefined now: the hinge is near vertical or the machine is moving"
        }
    }
}
