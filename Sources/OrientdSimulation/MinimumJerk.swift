/// The minimum-jerk profile (Flash & Hogan, 1985): the shape of unhurried human reaching
/// and turning movements. `s(τ) = 10τ³ − 15τ⁴ + 6τ⁵` goes from 0 to 1 as τ goes from 0 to 1,
/// starting and ending with zero velocity and zero acceleration, so a movement built
/// from it joins a still hold without a jolt.
enum MinimumJerk {
    /// The largest |s''(τ)|, reached at τ = 1/2 ∓ √3/6: a distance D covered in T seconds
    /// peaks at `peakAcceleration · D / T²`.
    static let peakAcceleration = 10 / Double(3).squareRoot()

    /// The largest s'(τ), at τ = 1/2: a movement's peak speed is `1.875 · D / T`.
    static let peakVelocity = 1.875

    /// s(τ), clamped: 0 before the movement, 1 after.
    static func position(_ tau: Double) -> Double {
        if tau <= 0 { return 0 }
        if tau >= 1 { return 1 }
        let t3 = tau * tau * tau
        return t3 * (10 + tau * (-15 + 6 * tau))
    }

    /// ds/dτ, zero outside [0, 1].
    static func velocity(_ tau: Double) -> Double {
        guard tau > 0, tau < 1 else { return 0 }
        let t2 = tau * tau
        return t2 * (30 + tau * (-60 + 30 * tau))
    }

    /// d²s/dτ², zero outside [0, 1].
    static func acceleration(_ tau: Double) -> Double {
        guard tau > 0, tau < 1 else { return 0 }
        return tau * (60 + tau * (-180 + 120 * tau))
    }
}
