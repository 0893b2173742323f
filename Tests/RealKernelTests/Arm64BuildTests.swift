import Foundation
import OrientdTestSupport
import Testing

/// orientd as built for Debian 13 on arm64 (`scripts/build-dist trixie arm64`: sid's
/// swiftlang cross-compiling against Debian 13's arm64 libraries), run here under
/// qemu-user in the Debian 13 root it was built against: its replay of every bundled
/// recording against this machine's own build, and its own unit tiers. The arm64 kernel
/// (the guest) is `RealKernelTests`' part. Skips loudly where the roots cannot be made.
@Suite(.serialized, .enabled(if: Arm64Build.missing.isEmpty, "\(Arm64Build.skipReason)"))
struct Arm64BuildTests {
    static let repository = Guest.repository.path
    static let buildDist = Guest.repository.appendingPathComponent("scripts/build-dist").path

    @Test("orientd replay of every bundled recording prints on arm64 exactly what it prints on amd64")
    func replayIsTheSame() throws {
        // Both release builds as packaged: this machine's (make package) and arm64's.
        for arguments in [["make", "-C", Self.repository, "--no-print-directory", "package"], [Self.buildDist, "trixie", "arm64"]] {
            let build = try OrientdProcess.runShell(arguments)
            try #require(build.status == 0, "\(arguments.joined(separator: " ")) failed: \(build.stderr.suffix(3000))")
        }
        let amd64 = "\(Self.repository)/.build-package/release/orientd"
        let arm64 = "\(Self.repository)/.build-package-trixie-arm64/release/orientd"
        let recordings = try FileManager.default.contentsOfDirectory(atPath: "\(Self.repository)/Recordings")
            .filter { $0.hasSuffix(".csv") }.sorted()
        #expect(recordings.count >= 20, "\(recordings)")
        // One run in the root for all of them (each start of the root costs a second);
        // their output goes to files in this repository, which is at its own path there.
        let out = "\(Self.repository)/.build-package-trixie-arm64/replay-check"
        try? FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let script = recordings.map { name in
            "'\(arm64)' replay --fast '\(Self.repository)/Recordings/\(name)' >'\(out)/\(name).out' 2>'\(out)/\(name).err'; echo $? >'\(out)/\(name).status'"
        }.joined(separator: "\n")
        let run = try OrientdProcess.runShell([Self.buildDist, "trixie", "arm64", "run", "--", "sh", "-c", script])
        try #require(run.status == 0, "scripts/build-dist trixie arm64 run failed: \(run.stderr.suffix(3000))")
        var compared = 0
        for name in recordings {
            let here = try OrientdProcess.run(
                ["replay", "--fast", "\(Self.repository)/Recordings/\(name)"], executable: URL(fileURLWithPath: amd64))
            func written(_ suffix: String) throws -> String {
                try String(contentsOfFile: "\(out)/\(name).\(suffix)", encoding: .utf8)
            }
            let there = (
                status: try written("status").trimmingCharacters(in: .whitespacesAndNewlines),
                stdout: try written("out"), stderr: try written("err")
            )
            #expect(there.status == "\(here.status)", "\(name): exit status on arm64 \(there.status), here \(here.status)")
            #expect(there.stdout == here.stdout, "\(name): arm64 printed\n\(there.stdout)\namd64 printed\n\(here.stdout)")
            #expect(there.stderr == here.stderr, "\(name): on stderr, arm64\n\(there.stderr)\namd64\n\(here.stderr)")
            #expect(here.stdout.contains(#""event":"orientation""#), "\(name): no orientation event at all: \(here.stdout)")
            compared += 1
        }
        print("arm64: replay of \(compared) recordings, byte for byte as on amd64")
    }

    @Test("the core suites and the daemon's socket, notify and standard-input paths pass on arm64 under qemu-user")
    func unitTiers() throws {
        // The arm64 test bundle (debug), run in the Debian 13 root: the core, and the
        // daemon's system paths whose structures differ by architecture (sockaddr_un and
        // sendmsg for notify, poll and the socket for ctl and monitor, signalfd's siginfo
        // for SIGTERM, commands on standard input). Waits are ten times as long there
        // (TestTime); what qemu-user cannot show is a known issue (Emulation). The
        // command-line suites that only run the binary to its end (replay, help, the
        // configuration file) pass there too but are not run here: 22 tests cost 157 s
        // of CI's qemu-user time (measured: 245 tests in 40 s without them, 267 in 197 s
        // with), and what they could find on arm64, the binary's output, replayIsTheSame
        // compares byte for byte. Every CommandLineTests suite: `scripts/build-dist trixie
        // arm64 tests -- --filter CommandLineTests` (86 tests, over half an hour).
        let run = try OrientdProcess.runShell([
            Self.buildDist, "trixie", "arm64", "tests", "--", "--filter",
            "OrientdCoreTests|ServiceNotifyTests|ControlChannelTests/standardInput|ControlChannelTests/socketClients",
        ])
        let output = run.stdout + run.stderr
        let lines = output.split(separator: "\n")
        let summary = lines.filter { $0.contains("Test run with") }.joined(separator: "\n")
        print("arm64 unit tiers: \(summary)")
        // What failed, and why (each issue's line and the ↳ lines under it): a suite's own
        // failure line names no test.
        var failures: [Substring] = []
        for (index, line) in lines.enumerated() where line.contains("recorded an issue") {
            failures.append(line)
            failures += lines[(index + 1)...].prefix { $0.hasPrefix("↳") }.prefix(10)
        }
        #expect(
            run.status == 0,
            "the arm64 test run failed (\(run.status)):\n\(failures.joined(separator: "\n"))\n…\n\(output.suffix(4000))")
        #expect(summary.contains("passed"), "no summary line from the arm64 run:\n\(output.suffix(3000))")
    }
}

/// What the arm64 build needs on this machine: root for the Debian roots, and the tools
/// `scripts/install-dependencies --dist` installs.
enum Arm64Build {
    static let counterpart = MissingCounterpart(
        programs: ["mmdebstrap", "qemu-aarch64-static", "update-binfmts", "unshare", "make"], needsRoot: true)
    static var missing: [String] { counterpart.missing }
    static let skipReason = counterpart.skipReason(
        suite: "Arm64BuildTests (orientd built for Debian 13 arm64, run under qemu-user)",
        why: """
            It builds in Debian roots made with mmdebstrap, so it needs root;
            scripts/test --all installs the rest and asks for this tier.
            """)
}
