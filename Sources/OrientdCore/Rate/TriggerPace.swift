/// The rate to ask of a trigger that has a rate of its own (an hrtimer trigger pacing a
/// chip without an interrupt line) at each pace of the adaptive rate: slowed while the
/// device is still, never faster than the rate its administrator gave it.
public enum TriggerPace {
    /// The longest trigger period at rest. A new rate takes effect only when the period
    /// running ends (hrtimer re-arms with the new period as it fires), so the first scan
    /// after the device moves comes up to one rest period late: 0.5 s at a rest rate of
    /// 2 Hz, 0.1 s here. The reader still wakes only at the rest rate.
    public static let longestPeriodAtRest = 0.1

    /// `rest`: the adaptive rate's rest rate; `administrator`: the trigger's rate when
    /// the sensor was opened.
    public static func rate(for pace: AdaptiveRate.Pace, rest: Double, administrator: Double) -> Double {
        switch pace {
        case .full, .watch: administrator
        case .rest: min(max(rest, 1 / longestPeriodAtRest), administrator)
        }
    }
}
