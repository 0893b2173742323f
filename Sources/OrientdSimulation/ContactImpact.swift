import OrientdCore

/// The small jolt when a device put down meets the table.
struct ContactImpact: Activity {
    let pulse: RickerPulse

    /// A landing at `time`: the jolt is over by then, so it belongs to the movement
    /// that put the device down, not to the still pose after it.
    init(time: Double, peak: Double) {
        let sigma = 0.006
        pulse = RickerPulse(center: time - 5 * sigma, peak: peak, sigma: sigma)
    }

    var activeStart: Double { pulse.start }
    var activeEnd: Double { pulse.end }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        effect.world += Vector3(0, 0, pulse.value(at: t))
    }
}
