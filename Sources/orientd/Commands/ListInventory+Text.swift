import OrientdCore

extension ListInventory {
    /// `orientd list`'s text: the switches, then each accelerometer (`*` marks the one
    /// `run` reads), the hinge angle on a 2-in-1, and which one `run` would read.
    var text: String {
        var lines: [String] = []
        for (node, result) in switches {
            switch result {
            case .success(let (found, mode)):
                lines.append("Tablet-mode switch \(found.id) (\(found.name)) at \(node): \(mode.rawValue)")
            case .failure(let error):
                lines.append("Tablet-mode switch at \(node): cannot be read: \(error)")
            }
        }
        if accelerometers.isEmpty {
            lines.append("No accelerometer found (looked in \(searchedPlaces)).")
            lines.append("Without a sensor, replay a recording: orientd replay Recordings/picked-up-from-table.csv")
            return lines.map { $0 + "\n" }.joined()
        }
        let chosen = chosen
        for accelerometer in accelerometers {
            let c = accelerometer.candidate
            lines.append("\(c == chosen ? "*" : " ") \(c.id)  \(c.name ?? "(no name)")\(c.label.map { "  label \($0)" } ?? "")")
            lines.append("    location          \(c.location.rawValue) (\(c.locationSource))")
            guard let info = accelerometer.info else {
                lines.append("    error             \(accelerometer.error ?? "")")
                continue
            }
            lines.append("    read              \(info.readPath.rawValue)\(info.polledBecause.map { " (\($0))" } ?? "")")
            lines.append("    mount matrix      \(info.mountMatrix) (\(info.mountMatrixSource.rawValue))")
            let s = info.calibration.scale
            lines.append(
                "    scale             \(s.x == s.y && s.y == s.z ? "\(s.x)" : "\(s.x), \(s.y), \(s.z)") m/s² per count (\(info.calibration.scaleSource))"
            )
            let o = info.calibration.offset
            lines.append("    offset            \(o == .zero ? "0" : "\(o.x), \(o.y), \(o.z)") (\(info.calibration.offsetSource))")
            lines.append(
                "    sampling          \(info.samplingFrequency.map { "\($0) Hz" } ?? "not given")\(info.samplingFrequencyAvailable.map { " (offers \($0))" } ?? "")"
            )
            lines.append(
                "    at rest           "
                    + (info.changeSensitivity != nil && info.readPath == .buffered
                        ? "watches for motion itself (\(ChangeSensitivity.attribute)): sends only what moves"
                        : "read at the rest rate (no change sensitivity)"))
            lines.append("    path              \(info.location)")
            let reading = accelerometer.reading.map {
                "\(Self.format($0.x)), \(Self.format($0.y)), \(Self.format($0.z)) m/s² (after the mount matrix)"
            }
            lines.append("    reading           \(reading ?? "none (read through its buffer only)")")
            for issue in info.issues { lines.append("    warning           \(issue)") }
        }
        let hinge = hinge
        if hinge.hasBase { lines.append("Hinge angle: \(hinge.description)") }
        if case .failure(let why) = choice {
            lines.append("'run' would read none: \(why)")
        } else {
            lines.append("* is the one 'orientd run' reads.")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func format(_ v: Double) -> String { JSONLineWriter.number(v, decimals: 2) }
}
