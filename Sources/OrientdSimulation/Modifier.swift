/// Something that goes on during a step, written after the step's duration:
/// `hold 5s walking tremor`.
///
/// Consecutive steps with the same modifier are one continuous activity (one walk, one
/// ride), so that a walk does not restart its rhythm at every step; its options are
/// those of the first step of the run.
enum Modifier: Sendable, Hashable {
    case walking(Walking.Options)
    case vehicle(VehicleRide.Options)
    case maneuver(Maneuver.Options)
    case taps(ScreenTaps.Options)
    case tremor(HandTremor.Options)
    case buzz(VibrationMotor.Options)
    /// The sensor delivers nothing during the step (a stalled driver, a suspended bus):
    /// the device goes on doing what the step says, unseen.
    case dropout

    /// The word that introduces the modifier in a scenario; steps with the same word
    /// join into one run.
    var word: String {
        switch self {
        case .walking: "walking"
        case .vehicle: "vehicle"
        case .maneuver(let options): options.kind.rawValue
        case .taps: "taps"
        case .tremor: "tremor"
        case .buzz: "buzz"
        case .dropout: "dropout"
        }
    }

    static let words = ["walking", "vehicle", "taps", "tremor", "buzz", "dropout"] + Maneuver.Kind.allCases.map(\.rawValue)
}
