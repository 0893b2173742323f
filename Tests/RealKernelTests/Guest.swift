import Foundation
import OrientdTestSupport
import Synchronization

/// The real-kernel guest (`scripts/vm`): Debian's own kernel under qemu, systemd as
/// PID 1 with the real udevd, orientd installed from its .deb as shipped, and the
/// virtual sensor (`virtual-sensor`, Tests/VirtualSensor) that the kernel's own HID
/// sensor drivers make an IIO accelerometer of. Booted once for the whole run and
/// powered off when the test process ends.
///
/// Which guest: `ORIENTD_VM_GUEST`, one of `bookworm-amd64` (Debian 12 amd64, the
/// default), `trixie-amd64` or `trixie-arm64` (Debian 13 on qemu's arm64 virt machine);
/// it goes to every `scripts/vm` call as `--dist` and `--arch`, and to make as DIST and
/// ARCH, so the .deb and the feeder are that guest's own.
enum Guest {
    static let repository = Repository.root
    static let vm = repository.appendingPathComponent("scripts/vm").path
    /// scripts/vm's state (qemu's sockets, the console, the share) in a directory of each
    /// guest's own, so that two test processes can each run a guest at once, of each
    /// checkout's (its inode): a clone's tests beside a working copy's would otherwise
    /// boot their guest over the other's, and of each instance's (`ORIENTD_VM_INSTANCE`):
    /// two processes that split one guest's cases each boot a guest of that kind.
    static let environment = [
        "PATH": "/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "ORIENTD_VM_DIR": "/run/orientd-vm-tests-\(key)-\(checkout)\(instance.isEmpty ? "" : "-\(instance)")",
    ]

    /// `ORIENTD_VM_INSTANCE`: which of the guests of one kind this process boots (unset:
    /// the first); a short word, as it goes into the unix sockets' paths.
    static let instance = ProcessInfo.processInfo.environment["ORIENTD_VM_INSTANCE"] ?? ""

    /// The checkout's inode, in hexadecimal: stable across runs, and short enough for the
    /// unix sockets' paths under the state directory.
    static let checkout: String = {
        var status = stat()
        return stat(repository.path, &status) == 0 ? String(status.st_ino, radix: 16) : "0"
    }()

    /// `ORIENTD_VM_GUEST` (empty or unset: `bookworm-amd64`), as DIST-ARCH. A value
    /// scripts/vm does not take is its to refuse, with the accepted ones named.
    static let key: String = {
        let value = ProcessInfo.processInfo.environment["ORIENTD_VM_GUEST"] ?? ""
        return value.isEmpty ? "bookworm-amd64" : value
    }()
    /// Debian 12 amd64, the one every case runs on (`coverage`).
    static let isDefault = key == "bookworm-amd64"
    /// The Debian release (`bookworm`, `trixie`) and architecture (`amd64`, `arm64`).
    static let dist = String(key.prefix { $0 != "-" })
    static let arch = String(key.drop { $0 != "-" }.dropFirst())
    /// The guest in words, for messages: "Debian 13 arm64".
    static let name = "Debian \(["bookworm": "12", "trixie": "13"][dist] ?? dist) \(arch)"
    /// Before every scripts/vm subcommand.
    static let options = ["--dist", dist, "--arch", arch]
    /// Which of the suite's cases run on a guest, for CI's time: where a case would show
    /// nothing new, it is not run again.
    enum Coverage {
        /// Debian 12 amd64: every case.
        case whole
        /// Debian 13 arm64, which differs from Debian 12 amd64 in its kernel (6.12), udev,
        /// systemd, glibc and architecture: the cases where those show (the start by udev,
        /// the reads polled and buffered, hot-plug, the sandbox, power, the rest rate,
        /// the I2C drivers).
        case core
        /// Debian 13 amd64, whose kernel and userland are those of Debian 13 arm64 built for
        /// amd64: what proves its own package (the start by udev, the reads polled and
        /// buffered, the sandbox's system calls with Debian 13's glibc on amd64).
        case package

        /// What runs, in words, for a skipped case's reason.
        var runs: String {
            switch self {
            case .whole: "every case runs on this guest"
            case .core: "the core cases run on this guest"
            case .package: "the cases that prove its package run on this guest"
            }
        }
    }
    static let coverage: Coverage = isDefault ? .whole : arch == "amd64" ? .package : .core

    /// Where make puts the guest's .deb and feeder: .build-package for Debian 12 amd64,
    /// the machine's own build; .build-package-DIST-ARCH for the others.
    static let packageDirectory = isDefault ? ".build-package" : ".build-package-\(key)"

    /// What the guest needs on this machine; empty when it can run.
    static let counterpart = MissingCounterpart(
        programs: [arch == "arm64" ? "qemu-system-aarch64" : "qemu-system-x86_64", "debootstrap", "mkfs.ext4", "python3", "make"],
        needsRoot: true)
    static var missing: [String] { counterpart.missing }
    static let skipReason = counterpart.skipReason(
        suite: "RealKernelTests (orientd on a real Linux kernel under qemu)",
        why: """
            It builds and boots a \(name) guest, so it needs root;
            scripts/test --all installs the rest and asks for this tier.
            """)

    /// Boots the guest once (building what it needs on first use: the .deb, the tool,
    /// the image); nil when it is up, else why not, with the console's last lines.
    static let bootFailure: String? = {
        // The .deb and the feeder from this checkout, not whatever an earlier build left,
        // unless scripts/test made them in the tier just before (ORIENTD_GUEST_MADE): make
        // deb empties the package's directory first, so a second make beside the checks
        // that read it would race them. One make at a time, as two test processes may
        // each run a guest and every .deb is made from the one debian/ directory.
        if ProcessInfo.processInfo.environment["ORIENTD_GUEST_MADE"] != key {
            let targets = ["deb", "vm-tools", "DIST=\(dist)", "ARCH=\(arch)"]
            let make = try? OrientdProcess.run(
                ["/run/orientd-vm-tests.make.lock", "make", "-C", repository.path, "--no-print-directory"] + targets,
                environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["flock"],
                timeout: 3600)
            guard let make else { return "make could not be started" }
            guard make.status == 0 else {
                return "make \(targets.joined(separator: " ")) failed (\(make.status)):\n\(make.stderr.suffix(3000))"
            }
        }
        guard let result = try? scriptsVM(["boot", "--fresh", "--until-exit-of", "\(getpid())"]) else {
            return "scripts/vm could not be started"
        }
        return result.status == 0 ? nil : bootFailed(result)
    }()

    /// How many times slower than the reference this guest runs now, at least 1: the one
    /// scale of every time bound in these tests, which are stated for the reference.
    /// Under TCG a guest's speed is the host's and its load (a CI machine ran the whole
    /// Debian 12 tier 1.3 times as long as this one; another guest beside it, or one
    /// being built, slows it by as much again), and arm64's emulation runs about twice as
    /// slow as amd64's, so fixed bounds fail on a slow machine and pass a slow daemon on
    /// a fast one. The measure: the median of five `systemctl --version` (an exec and a
    /// large library loaded, as a daemon's start), by the guest's own clock, over the
    /// reference's: 0.05 s on Debian 12 amd64 on this 2-core machine, mid-way through
    /// its tier (0.07-0.11 s in the first minutes after its boot, 0.12 s while the arm64
    /// image was being built beside it). Measured again as each test begins (`reset`),
    /// as the load changes, and after each `play`, the slower of the two kept: a load that
    /// rose while the recording played (a sanitizer's test run beside the guest made a
    /// start at pace 1.9 take 2.3 times the reference's) is then in the bound.
    static var pace: Double { measuredPace.withLock { $0 } }
    private static let measuredPace = Mutex(1.0)
    private static let paceProbe = """
        bash -c 'for i in 1 2 3 4 5; do s=$EPOCHREALTIME; systemctl --version >/dev/null; e=$EPOCHREALTIME; echo "pace $s $e"; done'
        """

    /// The pace from the probe's lines in `output`; printed, with what it was measured from.
    private static func measurePace(from output: String, keepingTheSlower: Bool = false) {
        let reference = 0.05
        let times = output.split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "pace", let start = Double(fields[1]), let end = Double(fields[2]) else {
                return nil
            }
            return end - start
        }.sorted()
        guard !times.isEmpty else {
            print("real kernel, \(name): its speed could not be measured; the time bounds stay at \(pace) times the reference's")
            return
        }
        let median = times[times.count / 2]
        let measured = max(1, median / reference)
        let pace = measuredPace.withLock {
            $0 = keepingTheSlower ? max($0, measured) : measured
            return $0
        }
        print(
            "real kernel, \(name): pace \(String(format: "%.2f", measured)) (systemctl --version in "
                + "\(String(format: "%.3f", median)) s, the median of \(times.count); the reference's \(reference) s)"
                + (keepingTheSlower ? "; the bounds at \(String(format: "%.2f", pace))" : ""))
    }

    /// A time bound stated for the reference guest (`pace`), for this one.
    static func bound(_ seconds: Double) -> Double { seconds * pace }

    /// `scripts/vm --dist DIST --arch ARCH ARGUMENTS`, with the tests' own state directory.
    private static func scriptsVM(_ arguments: [String]) throws -> OrientdProcess.Result {
        try OrientdProcess.run(
            [vm] + options + arguments, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"),
            prefix: ["python3"])
    }

    /// `scripts/vm ARGUMENTS` in the booted guest; throws why the guest is not there.
    private static func booted(_ arguments: [String]) throws -> OrientdProcess.Result {
        if let bootFailure { throw GuestError(bootFailure) }
        return try scriptsVM(arguments)
    }

    /// Runs a shell script in the guest as root (`scripts/vm shell`), after the functions
    /// of scripts/vm-guest/helpers.sh (`fail`, `wait_until`, `plug_devices`,
    /// `daemon_journal`, `restarts` and the others that file lists); its output and exit
    /// status.
    static func run(_ script: String, timeout: Double = 120) throws -> OrientdProcess.Result {
        try booted(["shell", "--timeout", "\(Int(timeout))", "--", script])
    }

    /// Runs Tests/RealKernelTests/guest/NAME.sh in the guest as `run` runs a script, with
    /// `arguments` as its positional parameters: the guest side of a test lives in a file
    /// of its own, which shellcheck checks (scripts/lint).
    static func run(script name: String, _ arguments: [String] = [], timeout: Double = 120) throws -> OrientdProcess.Result {
        let path = repository.appendingPathComponent("Tests/RealKernelTests/guest/\(name).sh").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw GuestError("cannot read \(path)") }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        return try run("set -- \(quoted.joined(separator: " "))\n\(text)", timeout: timeout)
    }

    /// `scripts/vm play`: the recording through the kernel into the installed daemon.
    /// The pace is measured again after it (`pace`).
    static func play(_ recording: String, _ arguments: [String] = []) throws -> OrientdProcess.Result {
        let result = try booted(["play", recording] + arguments)
        if let probe = try? run(paceProbe) { measurePace(from: probe.stdout, keepingTheSlower: true) }
        return result
    }

    /// `scripts/vm suspend`: to RAM through systemd, asleep for `seconds`, woken by qemu.
    /// The share is gone afterwards (see `reboot`).
    static func suspend(seconds: Double) throws -> OrientdProcess.Result {
        try booted(["suspend", "--seconds", "\(seconds)"])
    }

    /// A fresh guest, for the tests after one that suspended it (its share hangs).
    /// `reset` calls it when `scripts/vm suspend` has left its mark, so the suite's last
    /// suspend costs no boot (some 30 s under TCG).
    static func reboot() throws {
        let result = try booted(["boot", "--fresh", "--until-exit-of", "\(getpid())"])
        if result.status != 0 { throw GuestError(bootFailed(result)) }
    }

    /// Why a boot failed, in its first line (the one a test report keeps: scripts/vm's
    /// last word, the reason, before the console it quotes), then all it printed.
    static func bootFailed(_ result: OrientdProcess.Result) -> String {
        let lines = result.stderr.split(separator: "\n")
        let reason = lines.last { $0.hasPrefix("vm: ") }.map { $0.dropFirst(4) } ?? "it said nothing"
        return "scripts/vm boot (\(name)) failed (\(result.status)): \(reason)\n\(result.stderr)"
    }

    /// Puts a host file into the guest (through the share); its path there.
    static func copyIn(_ path: String) throws -> String {
        let result = try booted(["copy-in", path])
        guard result.status == 0 else { throw GuestError("scripts/vm copy-in \(path) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The guest's own feeder (for its architecture), in the guest at /mnt/share/virtual-sensor.
    static func copyInFeeder() throws {
        _ = try copyIn(repository.appendingPathComponent("\(packageDirectory)/release/virtual-sensor").path)
    }

    /// Back to a guest with orientd stopped, no virtual device, no saved lock and no
    /// local hwdb or configuration left by a test.
    static func reset() throws {
        if let dir = environment["ORIENTD_VM_DIR"], FileManager.default.fileExists(atPath: dir + "/suspended") {
            try reboot()
        }
        let result = try run("reset_guest || exit\n" + paceProbe)
        if result.status != 0 { throw GuestError("resetting the guest failed: \(result.stderr)") }
        measurePace(from: result.stdout)
    }
}

struct GuestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
