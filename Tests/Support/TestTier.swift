import Foundation

/// Which tier of the tests runs: the fast one by default (the core, the command line and
/// the umockdev sensors), or with `ORIENTD_TEST_TIER=all` (what `scripts/test --all` and CI
/// set) also the suites that run a real counterpart: compositors, systemd as PID 1, qemu
/// guests, the package. Chosen by the tier asked for, not by what happens to be installed.
public enum TestTier {
    public static let realCounterparts: Bool = {
        switch ProcessInfo.processInfo.environment["ORIENTD_TEST_TIER"] {
        case nil, "", "fast": return false
        case "all": return true
        case let other?:
            fatalError("ORIENTD_TEST_TIER=\(other): expected fast or all")
        }
    }()

    /// What a real-counterpart suite lacks in the fast tier, in `MissingCounterpart`'s words.
    static let notAskedFor = "the real-counterpart tier (ORIENTD_TEST_TIER=all, as scripts/test --all sets)"
}
