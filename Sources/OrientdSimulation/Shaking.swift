import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device shaken hard back and forth (`shake` in a scenario): 3–5 Hz, ±10–20 m/s²,
/// with the wrist twisting along.
///
/// The hand's position is what the model states (a sine whose strength varies from
/// stroke to stroke); the acceleration is its second derivative, taken numerically, so
/// the start and the end of the shaking are as smooth as the hand's movement.
struct Shaking: Activity {
    struct Options: Sendable, Hashable {
        /// Strokes per second.
        var frequency = 4.0
        /// Peak acceleration, m/s².
        var peak = 15.0
        /// Peak twist of the wrist about the screen's normal, degrees.
        var twist = 10.0
        /// The device axis along which it is shaken, at the start.
        var along = Vector3(1, 0, 0)
    }

    let options: Options
    let envelope: Envelope
    /// The world direction of the strokes: the device's `along` axis when shaking began.
    private let direction: Vector3
    private let amplitude: Double
    private let phase: Double
    private let modulation: (rate1: Double, phase1: Double, rate2: Double, phase2: Double)
    private static let step = 0.0005

    init(options: Options, envelope: Envelope, attitude: Quaternion, generator: inout Xoshiro256StarStar) {
        self.options = options
        self.envelope = envelope
        direction = attitude.rotate(options.along.normalized)
        let w = 2 * Double.pi * options.frequency
        amplitude = options.peak / (w * w)
        phase = generator.phase()
        modulation = (2 * .pi * generator.uniform(0.4, 0.9), generator.phase(), 2 * .pi * generator.uniform(1.0, 1.6), generator.phase())
    }

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    /// Strength of the current stroke: no two strokes are alike.
    private func strength(at t: Double) -> Double {
        envelope.value(at: t)
            * (1 + 0.15 * sin(modulation.rate1 * t + modulation.phase1) + 0.1 * sin(modulation.rate2 * t + modulation.phase2))
    }

    private func stroke(at t: Double) -> Double {
        sin(2 * Double.pi * options.frequency * (t - envelope.start) + phase)
    }

    private func position(at t: Double) -> Double {
        amplitude * strength(at: t) * stroke(at: t)
    }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        guard t >= envelope.start - Self.step, t <= envelope.end + Self.step else { return }
        let h = Self.step
        let a = (position(at: t + h) - 2 * position(at: t) + position(at: t - h)) / (h * h)
        effect.world += direction * a
        // The wrist turns the device against the stroke, as a flick of the hand does.
        effect.wobble = effect.wobble * Quaternion.aboutZ(degrees: -options.twist * strength(at: t) * stroke(at: t))
    }
}
