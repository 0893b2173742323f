import Foundation
import OrientdTestSupport
import Testing

/// The test harness's own decisions, tested without a guest: scripts/vm's package
/// (scripts/orientd_vm) with Python's unittest, as its tests/ hold them.
@Suite("The harness: scripts/vm without a guest")
struct HarnessTests {
    @Test("scripts/vm's unit tests pass: the guest chosen, qemu's command line, the play's files, the console read, the locks")
    func vmPackage() throws {
        let scripts = Repository.root.appendingPathComponent("scripts").path
        // -B: no __pycache__ left in the checkout.
        let run = try OrientdProcess.runShell([
            "python3", "-B", "-m", "unittest", "discover", "-s", "\(scripts)/orientd_vm/tests", "-t", scripts,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let ran = run.stderr.split(separator: "\n").first { $0.hasPrefix("Ran ") }
        let count = ran.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(count > 0, "no test ran: \(run.stderr)")
    }
}
