#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard normal numbers by the Box–Muller transform.
///
/// Box–Muller rather than a ziggurat: it needs no tables and its output is fully
/// determined by the uniform stream, which is what byte-identical recordings need.
struct GaussianNoise: Sendable {
    private var generator: Xoshiro256StarStar
    /// Box–Muller yields two numbers per pair of uniforms; the second waits here.
    private var spare: Double?

    init(generator: Xoshiro256StarStar) {
        self.generator = generator
    }

    mutating func next() -> Double {
        if let value = spare {
            spare = nil
            return value
        }
        var u1 = generator.nextUnit()
        // log(0) is −∞; 0 is the only value of nextUnit() that can produce it.
        while u1 == 0 { u1 = generator.nextUnit() }
        let u2 = generator.nextUnit()
        let radius = (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spare = radius * sin(angle)
        return radius * cos(angle)
    }
}
