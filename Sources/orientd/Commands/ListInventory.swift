import OrientdCore
import OrientdLinux
import SystemPackage

/// What `orientd list` shows, read once from the devices: every accelerometer with what
/// opening it told (or why it could not be opened) and one reading, the one `run` would
/// read, the base and the hinge angle between them, and the tablet-mode switches.
/// Nothing is changed on the devices. Its renderers (`text`, `json`) only format it.
struct ListInventory {
    struct Accelerometer {
        var candidate: AccelerometerCandidate
        /// What opening it told; nil when it could not be opened, `error` saying why.
        var info: AccelerometerInfo?
        var error: String?
        /// One reading after calibration and mount matrix; nil for a sensor read through
        /// its buffer only, or one that could not be opened.
        var reading: Vector3?
    }

    typealias Switch = (node: String, result: Result<(TabletModeSwitch, DeviceMode), Errno>)

    var accelerometers: [Accelerometer]
    /// The display accelerometer `run` would read, or why none.
    var choice: Result<AccelerometerCandidate, SensorChoice.Failure>
    var base: AccelerometerCandidate?
    var switches: [Switch]
    /// Where discovery looked, for the message when it found nothing.
    var searchedPlaces: String

    var chosen: AccelerometerCandidate? { try? choice.get() }

    var hinge: Hinge {
        func reading(_ candidate: AccelerometerCandidate?) -> Vector3? {
            candidate.flatMap { c in accelerometers.first { $0.candidate == c }?.reading }
        }
        return Hinge(display: reading(chosen), base: reading(base), hasBase: base != nil)
    }

    /// Reads the devices: `display` and `base` open the display and base sensors (each
    /// with its own mount matrix override). Throws only when nothing could be listed.
    static func read(
        display: AccelerometerDiscovery, base baseDiscovery: AccelerometerDiscovery, uri: String?, requested: String?
    ) throws -> ListInventory {
        let found = try display.find()
        var accelerometers: [Accelerometer] = []
        if !found.isEmpty {
            do {
                let context = try IIOContext(uri: uri)
                for f in found {
                    do {
                        let opener = f.candidate.location == .base ? baseDiscovery : display
                        let (info, device) = try opener.open(f, in: context, configure: false)
                        accelerometers.append(
                            Accelerometer(
                                candidate: f.candidate, info: info, reading: opener.reading(of: info, device: device, udev: f.udev)))
                    } catch {
                        accelerometers.append(Accelerometer(candidate: f.candidate, error: "\(error)"))
                    }
                }
            } catch {
                accelerometers = found.map { Accelerometer(candidate: $0.candidate, error: "\(error)") }
            }
        }
        let candidates = found.map(\.candidate)
        return ListInventory(
            accelerometers: accelerometers,
            choice: SensorChoice.choose(from: candidates, requested: requested),
            base: SensorChoice.chooseBase(from: candidates, candidate: { $0 }),
            switches: uri == nil ? (try? SwitchDiscovery.survey()) ?? [] : [],
            searchedPlaces: display.searchedPlaces)
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
