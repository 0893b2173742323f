import Foundation

/// The twelve changes between the four screen angles (every ordered pair), as one walk
/// that starts and ends at 0: 0 → 90 → 0 → 180 → 0 → 270 → 90 → 180 → 90 → 270 → 180 → 270 → 0.
public let everyScreenChange = [0, 90, 0, 180, 0, 270, 90, 180, 90, 270, 180, 270, 0]

/// A 50 Hz recording of a portrait-natural device held 1 s in each pose of `angles` (the
/// pose whose screen angle it is), so that `orientd replay` makes the events a real run
/// would make for those changes.
public func recordingThrough(angles: [Int]) -> String {
    let g = 9.80665
    var text = "# orientd-recording 1\n# rate-hz: 50\ntime,x,y,z\n"
    for (i, angle) in angles.enumerated() {
        // The gravity reading of each pose (Linux axes): portrait (0, -g), landscape-left
        // (right edge up) (-g, 0), upside-down (0, g), landscape-right (g, 0).
        let (x, y): (Double, Double) =
            switch angle {
            case 90: (-g, 0)
            case 180: (0, g)
            case 270: (g, 0)
            default: (0, -g)
            }
        for k in 0..<50 {
            text += String(format: "%.2f,%.4f,%.4f,0.0000\n", Double(i) + Double(k) / 50, x, y)
        }
    }
    return text
}

/// The environment `orientd run --exec` gives a hook for one orientation event.
public func hookEnvironment(for event: [String: Any], line: String) -> [String: String] {
    func text(_ key: String) -> String {
        switch event[key] {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        default: ""
        }
    }
    return [
        "ORIENTD_SCREEN": text("screen"), "ORIENTD_PREVIOUS": text("previous"), "ORIENTD_ANGLE": text("angle"),
        "ORIENTD_XRANDR": text("xrandr"), "ORIENTD_TRANSFORM": text("transform"), "ORIENTD_HYPRLAND": text("hyprland"),
        "ORIENTD_DEVICE": text("device"), "ORIENTD_LOCKED": (event["locked"] as? Bool) == true ? "true" : "false",
        "ORIENTD_CAUSE": text("cause"), "ORIENTD_EVENT": line,
    ]
}
