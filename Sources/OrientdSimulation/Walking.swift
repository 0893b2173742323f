import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user walks with the device in hand.
///
/// Figures from gait studies of trunk and hand-held accelerometers: the vertical
/// acceleration swings ±1.5–3 m/s² at the step frequency (1.8–2 Hz) with harmonics, the
/// forward one ±1–1.5 m/s² at the step frequency, the sideways one ±0.5–1 m/s² at half
/// of it (one sway per stride of two steps), and each heel strike adds a short jolt.
/// The hand sways the device by a few degrees at the same rhythms.
struct Walking: Activity {
    struct Options: Sendable, Hashable {
        /// Steps per second.
        var stepFrequency = 1.9
        /// Amplitudes, m/s².
        var vertical = 2.2
        var forward = 1.3
        var lateral = 0.7
        var heel = 2.0
        /// Amplitude of the hand's sway, degrees.
        var sway = 3.0
    }

    let options: Options
    let envelope: Envelope
    /// Cadence is not a metronome: it drifts by a few per cent over several seconds.
    private let cadenceDepth: Double
    private let cadenceRate: Double
    private let cadencePhase: Double
    private let startCycle: Double
    private let harmonicPhases: (Double, Double)
    private let forwardPhase: Double
    private let lateralPhase: Double
    private let swayPhases: (Double, Double, Double)
    /// One strength per step: no two steps are alike.
    private let stepGains: [Double]
    private static let heelSigma = 0.018

    init(options: Options, envelope: Envelope, generator: inout Xoshiro256StarStar) {
        self.options = options
        self.envelope = envelope
        cadenceDepth = generator.uniform(0.02, 0.04)
        cadenceRate = generator.uniform(0.06, 0.15)
        cadencePhase = generator.phase()
        startCycle = generator.nextUnit()
        harmonicPhases = (generator.phase(), generator.phase())
        forwardPhase = generator.uniform(1.2, 2.0)
        lateralPhase = generator.phase()
        swayPhases = (generator.phase(), generator.phase(), generator.phase())
        let steps = Int((envelope.end - envelope.start) * options.stepFrequency * 1.1) + 4
        var gains: [Double] = []
        gains.reserveCapacity(steps)
        for _ in 0..<steps { gains.append(generator.uniform(0.85, 1.15)) }
        stepGains = gains
    }

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    /// Steps taken since the run began (the integral of the drifting cadence).
    private func cycles(at t: Double) -> Double {
        let tau = t - envelope.start
        let f0 = options.stepFrequency
        let w = 2 * Double.pi * cadenceRate
        return startCycle + f0 * tau + f0 * cadenceDepth / w * (sin(w * tau + cadencePhase) - sin(cadencePhase))
    }

    private func frequency(at t: Double) -> Double {
        let tau = t - envelope.start
        return options.stepFrequency * (1 + cadenceDepth * cos(2 * Double.pi * cadenceRate * tau + cadencePhase))
    }

    /// The strength of the current step, blended into the next one so that the signal
    /// has no step of its own.
    private func gain(atCycle c: Double) -> Double {
        let k = max(0, min(stepGains.count - 2, Int(c.rounded(.down))))
        let blend = MinimumJerk.position(c - Double(k))
        return stepGains[k] + (stepGains[k + 1] - stepGains[k]) * blend
    }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        let e = envelope.value(at: t)
        guard e > 0 else { return }
        let c = cycles(at: t)
        let g = gain(atCycle: c) * e
        let p = 2 * Double.pi * c
        let vertical =
            options.vertical
            * (sin(p) + 0.35 * sin(2 * p + harmonicPhases.0) + 0.12 * sin(3 * p + harmonicPhases.1))
        let forward = options.forward * sin(p + forwardPhase)
        let lateral = options.lateral * sin(p / 2 + lateralPhase)
        // The heel strikes where the vertical acceleration peaks (phase 1/4 of a step).
        var offset = c - c.rounded(.down) - 0.25
        if offset < -0.5 { offset += 1 }
        if offset >= 0.5 { offset -= 1 }
        let heel = RickerPulse(center: 0, peak: options.heel, sigma: Self.heelSigma).value(at: offset / frequency(at: t))
        effect.body += Vector3(forward + 0.4 * heel, lateral, vertical + heel) * g
        let s = options.sway * e
        effect.wobble =
            effect.wobble
            * Quaternion.aboutX(degrees: 0.5 * s * sin(p + swayPhases.0))
            * Quaternion.aboutZ(degrees: s * sin(p / 2 + swayPhases.1))
            * Quaternion.aboutY(degrees: 0.3 * s * sin(p / 2 + swayPhases.2))
    }
}
