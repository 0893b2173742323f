import Glibc

/// The process's environment variables, read one way everywhere.
public enum Environment {
    /// The variable's value; nil when it is unset or empty, which systemd and the XDG
    /// base-directory rules both treat as unset.
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
