import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user rides a bus, tram or car: a broadband vibration from the road and the engine,
/// the slow heave of the suspension, and now and then a bump or pothole.
///
/// The vibration is a random-phase multisine (a sum of tones at random frequencies):
/// broadband like filtered noise, but a pure function of time, so any instant can be
/// evaluated without running a filter over the whole ride.
struct VehicleRide: Activity {
    struct Options: Sendable, Hashable {
        /// RMS of the vertical vibration, m/s²; forward and sideways get half.
        var vibration = 0.5
        /// Bumps per second.
        var bumps = 0.15
        /// Typical bump height, m/s² (each bump is 0.65–1.35 times this).
        var bump = 7.5
    }

    private struct Tone: Sendable {
        var axis: Int
        var amplitude: Double
        var angularFrequency: Double
        var phase: Double
    }

    let envelope: Envelope
    private let tones: [Tone]
    private let bumps: [RickerPulse]

    init(options: Options, envelope: Envelope, generator: inout Xoshiro256StarStar) {
        self.envelope = envelope
        var tones: [Tone] = []
        // Axis order of the body frame: forward, left, up.
        for (axis, count, rms) in [(2, 12, options.vibration), (0, 8, options.vibration / 2), (1, 8, options.vibration / 2)] {
            var axisTones: [Tone] = []
            // The suspension's heave and sway, around 1–2 Hz.
            axisTones.append(
                Tone(axis: axis, amplitude: 1.5, angularFrequency: 2 * .pi * generator.uniform(0.9, 1.8), phase: generator.phase()))
            for _ in 1..<count {
                // Log-uniform from 3 to 40 Hz: road texture, wheels, engine.
                let f = 3 * exp(generator.nextUnit() * log(40.0 / 3))
                axisTones.append(
                    Tone(axis: axis, amplitude: generator.uniform(0.4, 1), angularFrequency: 2 * .pi * f, phase: generator.phase()))
            }
            let power = axisTones.reduce(0) { $0 + $1.amplitude * $1.amplitude / 2 }
            let scale = rms / power.squareRoot()
            tones += axisTones.map {
                Tone(axis: $0.axis, amplitude: $0.amplitude * scale, angularFrequency: $0.angularFrequency, phase: $0.phase)
            }
        }
        self.tones = tones
        var bumps: [RickerPulse] = []
        if options.bumps > 0 {
            var t = envelope.start + envelope.rampIn + generator.exponential(mean: 1 / options.bumps)
            while t < envelope.end - envelope.rampOut - 0.2 {
                let peak = options.bump * generator.uniform(0.65, 1.35) * generator.sign()
                bumps.append(RickerPulse(center: t, peak: peak, sigma: generator.uniform(0.012, 0.03)))
                t += max(0.4, generator.exponential(mean: 1 / options.bumps))
            }
        }
        self.bumps = bumps
    }

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        let e = envelope.value(at: t)
        guard e > 0 else { return }
        var a = [0.0, 0.0, 0.0]
        for tone in tones {
            a[tone.axis] += tone.amplitude * sin(tone.angularFrequency * t + tone.phase)
        }
        var jolt = 0.0
        var i = firstBump(endingAfter: t)
        while i < bumps.count, bumps[i].start <= t {
            jolt += bumps[i].value(at: t)
            i += 1
        }
        // A bump is mostly vertical, with a forward kick as the wheel climbs it.
        effect.body += Vector3(a[0] * e + 0.3 * jolt, a[1] * e, a[2] * e + jolt)
    }

    private func firstBump(endingAfter t: Double) -> Int {
        var low = 0
        var high = bumps.count
        while low < high {
            let mid = (low + high) / 2
            if bumps[mid].end <= t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
