import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The small involuntary shake of a hand holding something still: physiological tremor,
/// 4–12 Hz, a fraction of a degree to a couple of degrees, waxing and waning.
struct HandTremor: Activity {
    struct Options: Sendable, Hashable {
        /// Degrees.
        var amplitude = 0.6
        /// Hz.
        var frequency = 7.0
    }

    private struct Component: Sendable {
        var axis: Vector3
        var amplitude: Double
        var angularFrequency: Double
        var phase: Double
        var modulationRate: Double
        var modulationPhase: Double
    }

    let envelope: Envelope
    private let components: [Component]
    /// The sensor's offset from the axis the hand trembles about, metres, device frame.
    /// The tremor pivots close to the device (fingers and wrist), so the translation
    /// that comes with the wobble is small, a tenth of a m/s² or so.
    private static let lever = Vector3(0, -0.005, 0.0025)

    init(options: Options, envelope: Envelope, generator: inout Xoshiro256StarStar) {
        self.envelope = envelope
        var components: [Component] = []
        for (axis, share) in [(Vector3(1, 0, 0), 1.0), (Vector3(0, 1, 0), 0.8), (Vector3(0, 0, 1), 0.5)] {
            components.append(
                Component(
                    axis: axis,
                    amplitude: options.amplitude * share,
                    angularFrequency: 2 * .pi * options.frequency * generator.uniform(0.85, 1.15),
                    phase: generator.phase(),
                    modulationRate: 2 * .pi * generator.uniform(0.15, 0.5),
                    modulationPhase: generator.phase()))
        }
        self.components = components
    }

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        let e = envelope.value(at: t)
        guard e > 0 else { return }
        for c in components {
            let swing = sin(c.angularFrequency * t + c.phase)
            let angle = (c.amplitude * e * (1 + 0.4 * sin(c.modulationRate * t + c.modulationPhase)) * swing).radians
            effect.wobble = effect.wobble * Quaternion(axis: c.axis, angle: angle)
            // Tangential acceleration α × r of an oscillation: α = −ω²·angle.
            effect.device += c.axis.cross(Self.lever) * (-c.angularFrequency * c.angularFrequency * angle)
        }
    }
}
