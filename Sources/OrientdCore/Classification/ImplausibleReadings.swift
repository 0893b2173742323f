/// Notices an episode of readings no accelerometer on a held or resting device gives: all
/// three axes exactly zero (a sensor that lost its settings or power, a driver reading a
/// register file nobody fills), or 3 g and more (saturated counts: a ±2 g chip reads 3.5 g
/// with all three axes at full scale; a Chromebook's EC reported negative values as
/// 32767). A hand shaking a device passes through less within a second; a run must last
/// `hold` seconds without a plausible reading. Said once when they have lasted `hold` seconds,
/// and once when plausible readings have lasted as long again: shorter runs are a drop
/// or a knock, which the classifier's magnitude gate already leaves out, as it leaves out
/// these; it decides nothing from them meanwhile.
public struct ImplausibleReadings: Sendable {
    public enum Kind: Equatable, Sendable {
        case allZero
        case beyondGravity
    }

    public enum Report: Equatable, Sendable {
        /// Implausible since `since` (seconds), of this kind; `reading` the latest.
        case began(Kind, reading: Vector3, since: Double)
        /// Plausible again since `since`, after `lasting` seconds of implausible ones.
        case ended(since: Double, lasting: Double)
    }

    /// Readings past this many g for a whole `hold` are no device's at hand or at rest.
    public static let limit = 3.0
    public let hold: Double
    /// The run of implausible readings going on: since when.
    private var implausibleSince: Double?
    /// The run of plausible readings going on during an episode.
    private var plausibleSince: Double?
    /// The episode reported: since when.
    private var episode: Double?

    public init(hold: Double = 1) {
        self.hold = hold
    }

    public static func kind(of a: Vector3, gravity: Double = standardGravity) -> Kind? {
        if a.x == 0, a.y == 0, a.z == 0 { return .allZero }
        return a.squaredLength >= (limit * gravity) * (limit * gravity) ? .beyondGravity : nil
    }

    /// Feeds one reading (after calibration); a report when an episode begins or ends.
    /// Inlined: every reading passes, and called it cost a call's 30 instructions.
    @inline(__always)
    public mutating func check(_ sample: Sample) -> Report? {
        let t = sample.time
        if let kind = Self.kind(of: sample.acceleration) {
            plausibleSince = nil
            let since = implausibleSince ?? t
            implausibleSince = since
            guard episode == nil, t - since >= hold else { return nil }
            episode = since
            return .began(kind, reading: sample.acceleration, since: since)
        }
        implausibleSince = nil
        guard let episode else { return nil }
        let since = plausibleSince ?? t
        plausibleSince = since
        guard t - since >= hold else { return nil }
        self.episode = nil
        plausibleSince = nil
        return .ended(since: since, lasting: since - episode)
    }

    /// The report in words, naming `device`.
    public static func message(_ report: Report, device: String) -> String {
        switch report {
        case .began(let kind, let a, let since):
            let values = [a.x, a.y, a.z].map { fixed($0, 3) }.joined(separator: ", ")
            let what =
                kind == .allZero
                ? "all zero" : "\(fixed(a.length / standardGravity, 1)) g, beyond any device's at hand (saturated counts?)"
            return "\(device): implausible readings since \(fixed(since, 1)) s: (\(values)) m/s², \(what); "
                + "no orientation is decided from them"
        case .ended(_, let lasting):
            return "\(device): plausible readings again, after \(fixed(lasting, 1)) s of implausible ones"
        }
    }

    private static func fixed(_ value: Double, _ decimals: Int) -> String {
        var text: [UInt8] = []
        RecordingWriter.appendFixed(value, decimals: decimals, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
