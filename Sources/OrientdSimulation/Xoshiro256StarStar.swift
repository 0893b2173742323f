#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// xoshiro256** (Blackman & Vigna), the simulator's only source of randomness.
///
/// Written here rather than taken from the standard library so that a recording depends
/// on nothing but the scenario and the seed: the standard library's generators and its
/// `random(in:using:)` algorithms are free to change between Swift releases.
struct Xoshiro256StarStar: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    init(seed: UInt64) {
        var seeder = SplitMix64(state: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    /// An independent generator for one purpose (sensor noise, one activity, …), so that
    /// adding a draw in one place does not shift the numbers drawn everywhere else.
    init(seed: UInt64, stream: UInt64) {
        self.init(seed: SplitMix64.mix(seed ^ SplitMix64.mix(stream &+ 0x5DEE_CE66_D1CE_4E5B)))
    }

    mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    /// Uniform in [0, 1), from the top 53 bits.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * nextUnit()
    }

    /// +1 or −1 with equal chance.
    mutating func sign() -> Double {
        next() >> 63 == 0 ? 1 : -1
    }

    /// Exponentially distributed with the given mean: the waiting time of a Poisson process.
    mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - nextUnit())
    }

    /// A uniformly random phase in [0, 2π).
    mutating func phase() -> Double {
        2 * Double.pi * nextUnit()
    }

    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
