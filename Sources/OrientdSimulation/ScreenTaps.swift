import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A finger tapping the screen of a hand-held device.
///
/// A tap pushes the device away from the finger (into −z) for 10–30 ms with up to about
/// 30 m/s² (3 g) for a hard tap, the case housing rings briefly, and the hand then brings
/// the device back. The three parts are sized so that the tap leaves no velocity behind.
struct ScreenTaps: Activity {
    struct Options: Sendable, Hashable {
        /// Taps per second, on average.
        var rate = 1.5
        /// The hardest tap, m/s²; each tap is 40–100 % of this.
        var peak = 20.0
    }

    struct Tap: Sendable, Hashable {
        var time: Double
        var peak: Double
        var width: Double
    }

    let envelope: Envelope
    let taps: [Tap]
    private static let ringFrequency = 2 * Double.pi * 55
    private static let ringDecay = 0.012
    private static let ringShare = 0.3
    private static let restoreWidth = 0.08
    /// The longest a tap lasts, ringing included.
    private static let tail = 0.03 + restoreWidth + 0.01

    init(options: Options, envelope: Envelope, generator: inout Xoshiro256StarStar) {
        self.envelope = envelope
        var taps: [Tap] = []
        if options.rate > 0 {
            // Fingers cannot tap faster than about 8 times a second.
            var t = envelope.start + envelope.rampIn + generator.exponential(mean: 1 / options.rate)
            while t < envelope.end - envelope.rampOut - Self.tail {
                taps.append(Tap(time: t, peak: options.peak * generator.uniform(0.4, 1), width: generator.uniform(0.010, 0.030)))
                t += 0.125 + generator.exponential(mean: 1 / options.rate)
            }
        }
        self.taps = taps
    }

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end + Self.tail }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        var i = firstTap(after: t - Self.tail)
        var z = 0.0
        while i < taps.count, taps[i].time <= t {
            z += Self.shape(of: taps[i], at: t - taps[i].time)
            i += 1
        }
        effect.device += Vector3(0, 0, z)
    }

    /// The tap's acceleration along z, `tau` seconds after it began.
    static func shape(of tap: Tap, at tau: Double) -> Double {
        let a = tap.peak
        let d = tap.width
        if tau < 0 { return 0 }
        if tau < d { return -a * sin(Double.pi * tau / d) }
        let after = tau - d
        var z = 0.0
        if after < 6 * ringDecay {
            z += ringShare * a * exp(-after / ringDecay) * sin(ringFrequency * after)
        }
        if after < restoreWidth {
            // Whatever momentum the push and the ringing left, the hand takes back.
            let push = a * 2 * d / Double.pi
            let w = ringFrequency
            let ring = ringShare * a * w / (w * w + 1 / (ringDecay * ringDecay))
            let restore = (push - ring) * Double.pi / (2 * restoreWidth)
            z += restore * sin(Double.pi * after / restoreWidth)
        }
        return z
    }

    private func firstTap(after t: Double) -> Int {
        var low = 0
        var high = taps.count
        while low < high {
            let mid = (low + high) / 2
            if taps[mid].time < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
