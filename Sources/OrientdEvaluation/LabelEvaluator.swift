import OrientdCore

/// Judges the device pose a classifier reported against a recording's `expect` labels.
public typealias LabelEvaluator = StretchEvaluator<DeviceOrientation>

extension StretchEvaluator where State == DeviceOrientation {
    public init(latencyBound: Double) {
        self.init(latencyBound: latencyBound, initial: .unknown)
    }

    /// Records one sample: its time, its label, and the pose reported after it.
    public mutating func observe(time: Double, expect: PoseLabel?, pose: DeviceOrientation) {
        observe(time: time, expect: expect.map(Self.label), state: pose)
    }

    static func label(_ label: PoseLabel) -> Label {
        switch label {
        case .pose(let pose): .state(pose)
        case .stable: .stable
        }
    }
}

/// Judges the screen orientation (unlocked, every rotation supported) against the same
/// labels: an upright pose asks for the rotation that shows it upright; face-up,
/// face-down and `stable` ask only that the screen does not move, because no pose there
/// may turn it. The state is nil until the first screen orientation is decided.
public typealias ScreenEvaluator = StretchEvaluator<Rotation?>

extension StretchEvaluator where State == Rotation? {
    public init(latencyBound: Double) {
        self.init(latencyBound: latencyBound, initial: nil) { $0.map { "\($0.angle)°" } ?? "none" }
    }

    public mutating func observe(time: Double, expect: PoseLabel?, screen: Rotation?) {
        observe(time: time, expect: expect.map(Self.label), state: screen)
    }

    static func label(_ label: PoseLabel) -> Label {
        switch label {
        case .pose(let pose): pose.rotation.map { .state($0) } ?? .stable
        case .stable: .stable
        }
    }
}
