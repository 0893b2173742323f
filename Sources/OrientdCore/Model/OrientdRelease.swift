/// The release of orientd, written here and nowhere else: `--version`, the control
/// socket's `status`, the man pages and the Debian package all take it from this value
/// (the package and the pages through `orientd --version` of the binary they ship).
public enum OrientdRelease {
    public static let version = "0.1.0"
}
