/// How long to wait before each attempt to reach a daemon that went away: 0.1 s, doubling
/// up to every 2 s. A restart (systemd's, or udev starting the daemon again for a sensor
/// that came back) takes a second or two, so the first attempts come quickly; a daemon
/// gone for good costs one attempt every 2 s. The client library and `orientd monitor`
/// wait by this one schedule.
public struct ReconnectSchedule: Sendable {
    public static let first = 0.1
    public static let last = 2.0

    private var coming = Self.first

    public init() {}

    /// The wait before the attempt about to be made; the next one waits twice as long.
    public mutating func nextDelay() -> Double {
        defer { coming = min(coming * 2, Self.last) }
        return coming
    }

    /// Connected: the next loss starts from the first delay again.
    public mutating func reset() { coming = Self.first }
}
