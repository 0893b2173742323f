import OrientdCore

extension ListInventory {
    /// `orientd list --json`: one array, an object per accelerometer (`kind`
    /// "accelerometer"), then one per tablet-mode switch (`kind` "switch"); the base's
    /// object carries the hinge angle. docs/commands.md lists the fields.
    var json: String {
        let chosen = chosen
        let hinge = hinge
        var objects: [[UInt8]] = []
        for accelerometer in accelerometers {
            let c = accelerometer.candidate
            var w = JSONLineWriter()
            w.add("device", c.id)
            w.add("name", c.name)
            w.add("label", c.label)
            w.add("location", c.location.rawValue)
            w.add("locationSource", c.locationSource)
            w.add("kind", "accelerometer")
            w.add("chosen", c == chosen)
            if let r = accelerometer.reading {
                w.add("reading", strings: [r.x, r.y, r.z].map { JSONLineWriter.number($0, decimals: 3) })
            } else {
                w.addNull("reading")
            }
            if c == base {
                if let angle = hinge.angle { w.add("hinge", angle, decimals: 1) } else { w.addNull("hinge") }
            }
            if let info = accelerometer.info {
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
                w.add("error", accelerometer.error)
            }
            objects.append(Array(w.line().dropLast()))  // the line without its newline
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
            objects.append(Array(w.line().dropLast()))
        }
        return "[" + objects.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]\n"
    }
}
