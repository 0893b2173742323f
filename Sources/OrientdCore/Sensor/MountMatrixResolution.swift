/// Where a device's mount matrix comes from.
public enum MountMatrixSource: String, Hashable, Sendable {
    case commandLine = "--mount-matrix"
    case udev = "udev ACCEL_MOUNT_MATRIX"
    case mountMatrix = "mount_matrix"
    case accelMountMatrix = "in_accel_mount_matrix"
    case inMountMatrix = "in_mount_matrix"
    case identity = "none (identity)"
}

extension MountMatrix {
    /// The mount matrix of a device: `--mount-matrix`, else udev's `ACCEL_MOUNT_MATRIX`
    /// (from systemd's hwdb), else the sysfs attributes `mount_matrix`,
    /// `in_accel_mount_matrix`, `in_mount_matrix`, else the identity; the first that
    /// parses and is usable wins, as in iio-sensor-proxy. One that does not parse or has
    /// a zero row is reported and skipped; a singular or skewed one is used with a warning.
    public static func resolve(
        device: String, override: MountMatrix? = nil, udevProperty: String?, attribute: (String) -> String?
    ) -> (matrix: MountMatrix, source: MountMatrixSource, issues: [AttributeIssue]) {
        if let override { return (override, .commandLine, []) }
        var issues: [AttributeIssue] = []
        let candidates: [(MountMatrixSource, String, String?)] = [
            (.udev, "ACCEL_MOUNT_MATRIX", udevProperty),
            (.mountMatrix, "mount_matrix", attribute("mount_matrix")),
            (.accelMountMatrix, "in_accel_mount_matrix", attribute("in_accel_mount_matrix")),
            (.inMountMatrix, "in_mount_matrix", attribute("in_mount_matrix")),
        ]
        for (source, name, text) in candidates {
            guard let text else { continue }
            let matrix: MountMatrix
            do {
                matrix = try MountMatrix(parsing: text)
            } catch {
                issues.append(AttributeIssue(device: device, attribute: name, message: "\(error.message); ignored"))
                continue
            }
            let findings = matrix.findings
            if let fatal = findings.first(where: \.isFatal) {
                issues.append(AttributeIssue(device: device, attribute: name, message: "\(fatal); ignored"))
                continue
            }
            for finding in findings {
                issues.append(AttributeIssue(device: device, attribute: name, message: "\(finding); using it as given"))
            }
            return (matrix, source, issues)
        }
        return (.identity, .identity, issues)
    }
}
