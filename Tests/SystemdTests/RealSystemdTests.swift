import Foundation
import OrientdTestSupport
import Testing

/// The shipped unit under a real systemd as PID 1 (`scripts/check-systemd-boot`: a Debian
/// 12 root booted with systemd-nspawn, orientd installed into it with `make install`).
/// Each check of the script is a defect users met: a start that timed out without a
/// sensor, a socket group the system-call filter refused, a unit that never heard a
/// hot-plug. It skips loudly when it cannot boot a container here.
@Suite(.serialized, .enabled(if: RealSystemd.missing.isEmpty, "\(RealSystemd.skipReason)"))
struct RealSystemdTests {
    @Test(
        "the unit under systemd 252 as PID 1: start without a sensor, socket, lock across restarts, reload, watchdog, a sensor, stop, a clean journal"
    )
    func bootedUnit() throws {
        let run = try OrientdProcess.run(
            [Repository.root.appendingPathComponent("scripts/check-systemd-boot").path],
            environment: ["PATH": "/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
            executable: URL(fileURLWithPath: "/bin/bash"))
        let failed =
            run.stdout.split(separator: "\n").filter { $0.contains("FAILED") }
            + run.stderr.split(separator: "\n").filter { $0.contains("FAILED") }
        #expect(run.status == 0, "\(failed.joined(separator: "\n"))\n\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("check-systemd-boot: all checks passed"), "\(run.stdout)")
    }
}

enum RealSystemd {
    static let programs = ["debootstrap", "systemd-nspawn", "nsenter", "umockdev-run", "make", "jq"]
    static let counterpart = MissingCounterpart(programs: programs, needsRoot: true)
    static var missing: [String] { counterpart.missing }
    static let skipReason = counterpart.skipReason(
        suite: "RealSystemdTests (the unit under a real systemd as PID 1)",
        why: """
            It boots a container, so it needs root; scripts/test --all installs
            the programs and asks for this tier.
            """)
}
