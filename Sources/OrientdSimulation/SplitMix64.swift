/// SplitMix64 (Steele, Lea & Flood): turns one 64-bit seed into a stream of well-mixed
/// words. Used to seed `Xoshiro256StarStar`, as its authors advise, and to derive
/// independent streams from one scenario seed.
struct SplitMix64: Sendable {
    var state: UInt64

    init(state: UInt64) {
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The output function on its own: a bijective scramble of one word.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
