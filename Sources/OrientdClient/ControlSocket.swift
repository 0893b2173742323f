import OrientdIO

/// Where the control socket is by default.
public enum ControlSocket {
    /// The path under the shipped unit (RuntimeDirectory=orientd).
    public static let systemPath = "/run/orientd/control.sock"

    /// Under systemd: the unit's runtime directory.
    public static var serviceDefault: String? {
        guard let directory = Environment.value("RUNTIME_DIRECTORY")?.split(separator: ":").first else { return nil }
        return "\(directory)/control.sock"
    }

    /// What `ctl` connects to: ORIENTD_SOCKET, else the system path.
    public static var clientDefault: String { Environment.value("ORIENTD_SOCKET") ?? systemPath }
}
