/// The physical pose of the device, named after the edge that points up.
///
/// The names are those of iOS's `UIDeviceOrientation` (docs/events.md, "Axes and names").
/// Beware the iOS trap: the *interface* orientation landscapeLeft is the *device*
/// pose landscape-right, and the reverse.
public enum DeviceOrientation: String, CaseIterable, Hashable, Sendable {
    /// Top edge up: the natural pose.
    case portrait
    /// Right edge up: turned 90° counter-clockwise, seen from the front.
    case landscapeLeft = "landscape-left"
    /// Bottom edge up.
    case portraitUpsideDown = "portrait-upside-down"
    /// Left edge up: turned 90° clockwise, seen from the front.
    case landscapeRight = "landscape-right"
    /// Lying on its back, screen to the sky.
    case faceUp = "face-up"
    /// Lying on its screen.
    case faceDown = "face-down"
    /// Not known yet: no certain reading since start.
    case unknown

    /// The screen rotation that shows this pose upright, or nil for poses that never
    /// move the screen (face-up, face-down, unknown).
    @inlinable
    public var rotation: Rotation? {
        switch self {
        case .portrait: .degrees0
        case .landscapeLeft: .degrees90
        case .portraitUpsideDown: .degrees180
        case .landscapeRight: .degrees270
        case .faceUp, .faceDown, .unknown: nil
        }
    }

    /// The pose that shows the given rotation upright.
    @inlinable
    public init(_ rotation: Rotation) {
        switch rotation {
        case .degrees0: self = .portrait
        case .degrees90: self = .landscapeLeft
        case .degrees180: self = .portraitUpsideDown
        case .degrees270: self = .landscapeRight
        }
    }

    /// Is this one of the four upright poses (those that can rotate the screen)?
    @inlinable public var isUpright: Bool { rotation != nil }

    /// The direction a still device reads in this pose, after the mount matrix: the
    /// frame of the kernel's IIO documentation, systemd's hwdb and iio-sensor-proxy
    /// (docs/events.md, "Axes and names"). Nil for unknown.
    public var reading: Vector3? {
        switch self {
        case .portrait: Vector3(0, -1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .portraitUpsideDown: Vector3(0, 1, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, 1)
        case .faceDown: Vector3(0, 0, -1)
        case .unknown: nil
        }
    }

    /// The pose whose `reading` is nearest in direction to `reading` (never unknown):
    /// what a still device reads as, without the classifier's margins.
    public static func nearest(to reading: Vector3) -> DeviceOrientation {
        let unit = reading.normalized
        var best = DeviceOrientation.portrait
        for pose in allCases {
            if let direction = pose.reading, unit.dot(direction) > unit.dot(best.reading!) { best = pose }
        }
        return best
    }
}

extension DeviceOrientation: CustomStringConvertible {
    public var description: String { rawValue }
}
