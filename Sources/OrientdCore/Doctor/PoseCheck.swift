/// The mount matrix in force, where it came from, and whether the pose it gives the
/// current reading is one a device in use is likely to be in (`orientd doctor`).
public enum PoseCheck {
    /// - Parameters:
    ///   - reading: the mean of the readings, calibrated, before the mount matrix.
    ///   - convertible: a base sensor was found: the display sensor is in a laptop's lid.
    public static func judge(matrix: MountMatrix, source: MountMatrixSource, reading: Vector3, convertible: Bool) -> DoctorFinding {
        let from =
            switch source {
            case .commandLine: "(from orientd's mount-matrix setting: orientd.conf or --mount-matrix)"
            case .udev: "(from the hwdb: udev's ACCEL_MOUNT_MATRIX)"
            case .mountMatrix, .accelMountMatrix, .inMountMatrix: "(from the driver: sysfs \(source.rawValue))"
            case .identity: "(the identity: no hwdb entry, none from the driver or orientd.conf)"
            }
        let pose = DeviceOrientation.nearest(to: matrix.apply(reading))
        let detail = "\(matrix) \(from); the device reads \(pose) now"
        let calibrate = "orientd calibrate (it finds the matrix from three poses and writes the hwdb entry)"
        switch pose {
        case .faceDown:
            let held = convertible ? "a laptop's lid is never face down when open" : "a tablet in use is seldom face down"
            return DoctorFinding(
                "mount matrix", .problem, detail + ": \(held); if the screen faces up or towards you, z is inverted", fix: calibrate)
        case .portraitUpsideDown where convertible:
            return DoctorFinding(
                "mount matrix", .problem, detail + ": an open laptop's lid is never upside down; the matrix turns it", fix: calibrate)
        default:
            return DoctorFinding(
                "mount matrix", source == .identity ? .note : .ok,
                detail + (source == .identity ? "; if the screen turns the wrong way, it needs one" : ""),
                fix: source == .identity ? calibrate : nil)
        }
    }
}
