#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A short jolt: the second derivative of a Gaussian dip in position (a "Mexican hat").
///
/// Used for potholes, heel strikes and landings because a real jolt moves the device a
/// little and returns it: the pulse integrates to zero, so it leaves no velocity behind,
/// unlike a one-sided spike.
struct RickerPulse: Sendable, Hashable {
    /// Time of the central peak, seconds.
    var center: Double
    /// Height of the central peak, m/s² (signed).
    var peak: Double
    /// Half-width of the central lobe, seconds; the side lobes reach to about ±3σ.
    var sigma: Double

    func value(at t: Double) -> Double {
        let u = (t - center) / sigma
        guard abs(u) < 5 else { return 0 }
        let u2 = u * u
        return peak * (1 - u2) * exp(-u2 / 2)
    }

    var start: Double { center - 5 * sigma }
    var end: Double { center + 5 * sigma }
}
