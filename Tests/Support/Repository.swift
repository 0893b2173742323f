import Foundation

/// The checkout the tests run from: its scripts, hooks, recordings and fixtures.
public enum Repository {
    /// Its root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A rotation script in hooks/.
    public static func hook(_ name: String) -> URL { root.appendingPathComponent("hooks/\(name)") }
}
