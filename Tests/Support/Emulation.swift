import Foundation

/// Whether the test bundle runs under qemu-user, another architecture's binaries emulated
/// on this machine's kernel (`ORIENTD_TEST_EMULATION=qemu-user`, set by `scripts/build-dist`
/// for the arm64 bundle), and what that cannot show.
public enum Emulation {
    public static let qemuUser = ProcessInfo.processInfo.environment["ORIENTD_TEST_EMULATION"] == "qemu-user"

    /// qemu-user runs posix_spawn's child as a plain fork, so an exec that fails is not
    /// reported to the parent: the child exits 127 and orientd cannot name what was missing.
    /// The arm64 kernel (RealKernelTests on the arm64 guest) runs the shipped daemon instead.
    public static let failedExecUnreported = "qemu-user's posix_spawn does not report a failed exec to the parent"
}
