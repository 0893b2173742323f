/// Where an accelerometer sits: in the display (it turns with the screen) or in the
/// base of a convertible (it does not).
public enum SensorLocation: String, Hashable, Sendable {
    case display
    case base
    case unknown
}

/// An accelerometer as discovery found it, before it is opened.
public struct AccelerometerCandidate: Hashable, Sendable {
    /// The IIO device id: `iio:device0`.
    public var id: String
    /// sysfs `name` (the driver's part name), if any.
    public var name: String?
    /// sysfs `label` (`accel-display`, `accel-base`), if any.
    public var label: String?
    public var location: SensorLocation
    /// What the location was read from, for `orientd list`.
    public var locationSource: String

    public init(id: String, name: String?, label: String?, location: SensorLocation, locationSource: String) {
        self.id = id
        self.name = name
        self.label = label
        self.location = location
        self.locationSource = locationSource
    }

    /// Reads the location the way the Linux stack does: udev's `ACCEL_LOCATION`
    /// (`display`/`base`, set by systemd's hwdb), else `label` (`accel-display` /
    /// `accel-base`), else sysfs `location` (`lid` / `base`, cros-ec), else unknown.
    public static func location(
        udevProperty: String?, label: String?, sysfsLocation: String?
    ) -> (SensorLocation, String) {
        if let p = udevProperty?.trimmingSysfs.lowercased() {
            if p == "display" { return (.display, "udev ACCEL_LOCATION") }
            if p == "base" { return (.base, "udev ACCEL_LOCATION") }
        }
        if let l = label?.trimmingSysfs.lowercased() {
            if l == "accel-display" { return (.display, "label") }
            if l == "accel-base" { return (.base, "label") }
        }
        if let s = sysfsLocation?.trimmingSysfs.lowercased() {
            if s == "lid" || s == "display" { return (.display, "location") }
            if s == "base" { return (.base, "location") }
        }
        return (.unknown, "not given; taken as display")
    }
}

/// Which accelerometer rotates the screen.
public enum SensorChoice {
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// - `requested` (from `--device`) matches an id, a name or a label, exactly.
    /// - Otherwise the first display sensor, then the first of unknown location (most
    ///   tablets say nothing: their only sensor is in the display). A base sensor is
    ///   never chosen by itself: it turns with the keyboard, not the screen.
    public static func choose(from candidates: [AccelerometerCandidate], requested: String?) -> Result<AccelerometerCandidate, Failure> {
        choose(from: candidates, candidate: { $0 }, requested: requested)
    }

    /// The same choice among things that each carry a candidate (what discovery found,
    /// with what it needs to open it); returns the thing chosen.
    public static func choose<Item>(
        from items: [Item], candidate: (Item) -> AccelerometerCandidate, requested: String?
    ) -> Result<Item, Failure> {
        let sorted = items.map { (item: $0, candidate: candidate($0)) }.sorted { naturalOrder($0.candidate.id, $1.candidate.id) }
        if let requested {
            if let match = sorted.first(where: {
                $0.candidate.id == requested || $0.candidate.name == requested || $0.candidate.label == requested
            }) {
                return .success(match.item)
            }
            let seen = sorted.isEmpty ? "none" : sorted.map(\.candidate.summary).joined(separator: ", ")
            return .failure(Failure(description: "no accelerometer matches --device \(requested); found: \(seen)"))
        }
        if let display = sorted.first(where: { $0.candidate.location == .display })
            ?? sorted.first(where: { $0.candidate.location == .unknown })
        {
            return .success(display.item)
        }
        if let base = sorted.first?.candidate {
            return .failure(
                Failure(
                    description:
                        "only a base accelerometer was found (\(base.summary)): it turns with the keyboard, not the screen; give --device \(base.id) to use it anyway"
                ))
        }
        return .failure(Failure(description: "no accelerometer found"))
    }

    /// The base accelerometer of a convertible, for the hinge angle: the first one whose
    /// location says base. Never one of unknown location: a sensor that does not say
    /// where it sits is taken for the display's.
    public static func chooseBase<Item>(from items: [Item], candidate: (Item) -> AccelerometerCandidate) -> Item? {
        items.map { (item: $0, candidate: candidate($0)) }.sorted { naturalOrder($0.candidate.id, $1.candidate.id) }
            .first { $0.candidate.location == .base }?.item
    }

    /// `iio:device2` before `iio:device10`.
    static func naturalOrder(_ a: String, _ b: String) -> Bool {
        func split(_ s: String) -> (String, Int) {
            let digits = s.reversed().prefix { $0.isNumber }
            return (String(s.dropLast(digits.count)), Int(String(digits.reversed())) ?? -1)
        }
        let (pa, na) = split(a)
        let (pb, nb) = split(b)
        return pa != pb ? pa < pb : na < nb
    }
}

extension AccelerometerCandidate {
    var summary: String {
        var parts = [id]
        if let name { parts.append(name) }
        if let label { parts.append(label) }
        parts.append(location.rawValue)
        return parts.joined(separator: " ")
    }
}
