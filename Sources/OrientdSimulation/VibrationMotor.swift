import OrientdCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device's own vibration motor buzzing for a notification (`buzz` in a scenario).
///
/// An eccentric-mass motor spins at 150–200 Hz with its shaft along the device's x axis,
/// so it shakes the device with a force that turns in the y–z plane, in bursts. At
/// 50 Hz the buzz aliases to a slow wobble, as it does on real parts.
///
/// `continuous` runs it without pauses: a phone ringing beside the sensor on the same
/// board, or anything that shakes the device steadily (a machine on the same table, an
/// engine under a car mount at 20–60 Hz).
struct VibrationMotor: Activity {
    struct Options: Sendable, Hashable {
        var frequency = 170.0
        /// m/s².
        var acceleration = 2.5
        var continuous = false
    }

    let options: Options
    let envelope: Envelope
    private static let burst = 0.4
    private static let pause = 0.25
    private static let edge = 0.01

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        let tau = t - envelope.start
        guard tau >= 0, t <= envelope.end else { return }
        let gate: Double
        if options.continuous {
            gate = MinimumJerk.position(tau / Self.edge)
        } else {
            let inCycle = tau.truncatingRemainder(dividingBy: Self.burst + Self.pause)
            guard inCycle < Self.burst else { return }
            // The motor takes about 10 ms to spin up and to stop.
            gate = MinimumJerk.position(inCycle / Self.edge) * MinimumJerk.position((Self.burst - inCycle) / Self.edge)
        }
        let angle = 2 * Double.pi * options.frequency * tau
        let a = options.acceleration * gate * min(1, (envelope.end - t) / Self.edge)
        effect.device += Vector3(0, a * cos(angle), a * sin(angle))
    }
}
