/// What a couple of seconds of readings say about a sensor (`orientd doctor`): whether
/// they change at all, and whether they measure gravity as 9.8 m/s².
public enum ReadingsCheck {
    /// A sensor whose every reading is the same for this long is stuck: a real one's
    /// readings move by a count or two with noise, even lying still.
    public static let staleSeconds = 1.5
    /// The classifier ignores readings further than `magnitude-tolerance` (3 m/s²) from
    /// gravity; a scale off by more than this much leaves it nothing to classify.
    public static let gravityTolerance = 1.5

    /// - Parameters:
    ///   - samples: readings in m/s², calibrated, before the mount matrix.
    ///   - scale: the scale in force and where it came from, for the message.
    public static func judge(_ samples: [Sample], scale: String) -> [DoctorFinding] {
        guard let first = samples.first, let last = samples.last else {
            return [
                DoctorFinding(
                    "readings", .problem, "the sensor gave no reading in 2 s",
                    fix: "journalctl -k | grep -i -e iio -e accel (the driver's messages); orientd list (what orientd sees)")
            ]
        }
        var findings: [DoctorFinding] = []
        let span = last.time - first.time
        let a = last.acceleration
        let shown = "(\(number(a.x)), \(number(a.y)), \(number(a.z)))"
        let stuck = samples.allSatisfy({ $0.acceleration == first.acceleration }) && span >= staleSeconds
        if stuck, let kind = ImplausibleReadings.kind(of: a) {
            // Stuck at nothing or at full scale: the one problem; gravity has nothing to add.
            let what =
                kind == .allZero
                ? "every reading in \(number(span, 1)) s was (0, 0, 0): the sensor sends nothing (it is unpowered, lost "
                    + "its settings, or its driver reads registers nothing fills)"
                : "every reading in \(number(span, 1)) s was \(shown) m/s², \(number(a.length / standardGravity, 1)) g: its counts are "
                    + "saturated, no device's at hand or at rest"
            return [
                DoctorFinding(
                    "readings", .problem, what + "; orientd decides no orientation from such readings and says so in the journal",
                    fix: "journalctl -k | grep -i -e iio -e accel (the driver's messages); suspend and resume, or unload and load "
                        + "the driver's module, reset many sensors; if it stays, report it to the driver's maintainers")
            ]
        }
        if stuck {
            findings.append(
                DoctorFinding(
                    "readings", .problem,
                    "all \(samples.count) readings in \(number(span, 1)) s were the same, \(shown) m/s²: a real accelerometer's "
                        + "readings move with noise, so the driver is returning a stale value (or the sensor is not running)",
                    fix: "move the device and run orientd doctor again; if they stay the same, the driver is at fault "
                        + "(journalctl -k; a kernel update, or unloading and loading its module, may help)"))
        } else {
            findings.append(
                DoctorFinding("readings", .ok, "\(samples.count) readings in \(number(span, 1)) s, changing; the last \(shown) m/s²"))
        }
        // The median magnitude: a hand moving the device swings it both ways.
        let magnitudes = samples.map(\.acceleration.length).sorted()
        let g = magnitudes[magnitudes.count / 2]
        let standard = 9.80665
        if abs(g - standard) <= gravityTolerance {
            findings.append(DoctorFinding("gravity", .ok, "\(number(g, 2)) m/s² (scale \(scale))"))
        } else {
            let ratio = g / standard
            var why = "the sensor measures gravity as \(number(g, 2)) m/s², \(number(ratio, 2)) times 9.81: its scale (\(scale)) is wrong"
            if abs(ratio * standard - 1) < 0.15 {
                why += "; it reads in g, not in m/s²"
            } else if g < 0.5 {
                why += " or it reads nothing"
            }
            findings.append(
                DoctorFinding(
                    "gravity", .problem,
                    why + ", and orientd ignores readings more than 3 m/s² from gravity, so it cannot tell the pose",
                    fix: "a wrong scale is a driver or firmware bug: report it, with orientd list, to the driver's maintainers; "
                        + "meanwhile magnitude-tolerance = \(Int((abs(g - standard) + 2).rounded(.up))) in /etc/orientd.conf lets orientd "
                        + "classify it (shakes are then told apart less well)"))
        }
        return findings
    }

    static func number(_ value: Double, _ decimals: Int = 2) -> String {
        JSONLineWriter.number(value, decimals: decimals)
    }
}
