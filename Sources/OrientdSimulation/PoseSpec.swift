import OrientdCore

/// A pose as written in a scenario (`landscape-left`, `portrait tilt 65`, `roll 40`,
/// `face-down heading 90`); what is not given comes from the current pose when the step
/// is placed on the time line.
struct PoseSpec: Sendable, Hashable {
    var name: DeviceOrientation?
    var roll: Double?
    var tilt: Double?
    var heading: Double?

    var isEmpty: Bool { name == nil && roll == nil && tilt == nil && heading == nil }

    /// As written, for messages.
    var text: String {
        var parts: [String] = []
        if let name { parts.append(name.rawValue) }
        if let roll { parts.append("roll \(Self.format(roll))") }
        if let tilt { parts.append("tilt \(Self.format(tilt))") }
        if let heading { parts.append("heading \(Self.format(heading))") }
        return parts.joined(separator: " ")
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e6 ? String(Int(v)) : String(v)
    }
}
