import OrientdCore

/// A sustained push from a vehicle: turning, braking, speeding up.
///
/// In a turn the bus, and the user and device with it, accelerate towards the inside of
/// the curve (1–3 m/s² in city traffic); braking and speeding up push along the direction
/// of travel. The user turns with the vehicle, so the direction is fixed in the user's
/// frame. The push builds up and dies away over about a second, as a driver does it.
struct Maneuver: Activity {
    enum Kind: String, Sendable, Hashable, CaseIterable {
        case turnLeft = "turn-left"
        case turnRight = "turn-right"
        case brake
        case speedUp = "speed-up"

        /// The direction of the acceleration in the body frame (forward, left, up).
        var direction: Vector3 {
            switch self {
            case .turnLeft: Vector3(0, 1, 0)
            case .turnRight: Vector3(0, -1, 0)
            case .brake: Vector3(-1, 0, 0)
            case .speedUp: Vector3(1, 0, 0)
            }
        }
    }

    struct Options: Sendable, Hashable {
        var kind: Kind
        /// m/s².
        var acceleration = 2.0
    }

    let options: Options
    let envelope: Envelope

    var activeStart: Double { envelope.start }
    var activeEnd: Double { envelope.end }

    func contribute(at t: Double, into effect: inout ActivityEffect) {
        let e = envelope.value(at: t)
        guard e > 0 else { return }
        effect.body += options.kind.direction * (options.acceleration * e)
    }
}
