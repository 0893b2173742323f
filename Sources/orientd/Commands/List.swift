import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdLinux

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every accelerometer orientd can see, and which one 'run' would read.",
        discussion: """
            For each: IIO device, name, label, location (display or base) and where that \
            came from, mount matrix and its source, scale and offset and their sources, \
            sampling frequency, and whether it is read buffered or polled. Nothing is \
            changed on the devices.

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

    func run() throws {
        let diagnostics = Diagnostics()
        let discovery = AccelerometerDiscovery(uri: sensor.uri, mountMatrixOverride: try mountMatrix.matrix, rate: sensor.rate)
        let found: [AccelerometerDiscovery.Found]
        do {
            found = try discovery.find()
        } catch {
            diagnostics.error("cannot list accelerometers: \(error)")
            throw ExitCode(ExitStatus.unavailable)
        }
        let chosen = try? SensorChoice.choose(from: found.map(\.candidate), requested: sensor.device).get()
        var infos: [(AccelerometerInfo?, AccelerometerDiscovery.Found, String?)] = []
        if !found.isEmpty {
            do {
                let context = try IIOContext(uri: sensor.uri)
                for f in found {
                    do {
                        infos.append((try discovery.open(f, in: context, configure: false).0, f, nil))
                    } catch {
                        infos.append((nil, f, "\(error)"))
                    }
                }
            } catch {
                infos = found.map { (nil, $0, "\(error)") }
            }
        }
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
                w.add("chosen", f.candidate == chosen)
                if let info {
                    w.add("mountMatrix", info.mountMatrix.description)
                    w.add("mountMatrixSource", info.mountMatrixSource.rawValue)
                    w.add("scale", strings: [info.calibration.scale.x, info.calibration.scale.y, info.calibration.scale.z].map { "\($0)" })
                    w.add("scaleSource", info.calibration.scaleSource)
                    w.add("offsetSource", info.calibration.offsetSource)
                    if let f = info.samplingFrequency { w.add("samplingFrequency", f, decimals: 3) } else { w.addNull("samplingFrequency") }
                    w.add("samplingFrequencyAvailable", info.samplingFrequencyAvailable)
                    w.add("read", info.readPath.rawValue)
                    w.add("path", info.location)
                    w.add("warnings", strings: info.issues.map(\.description))
                } else {
                    w.add("error", error)
                }
                var line = w.line()
                line.removeLast()  // newline
                out.append(contentsOf: line)
            }
            out.append(contentsOf: Array("]\n".utf8))
            print(String(decoding: out, as: UTF8.self), terminator: "")
            return
        }
        if found.isEmpty {
            print("No accelerometer found (looked in \(discovery.searchedPlaces)).")
            print("Without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv")
            return
        }
        for (info, f, error) in infos {
            let c = f.candidate
            print("\(c == chosen ? "*" : " ") \(c.id)  \(c.name ?? "(no name)")\(c.label.map { "  label \($0)" } ?? "")")
            print("    location          \(c.location.rawValue) (\(c.locationSource))")
            guard let info else {
                print("    error             \(error ?? "")")
                continue
            }
            print("    read              \(info.readPath.rawValue)")
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
            print("    path              \(info.location)")
            for issue in info.issues { print("    warning           \(issue)") }
        }
        if chosen == nil, case .failure(let why) = SensorChoice.choose(from: found.map(\.candidate), requested: sensor.device) {
            print("'run' would read none: \(why)")
        } else {
            print("* is the one 'orientd run' reads.")
        }
    }
}
