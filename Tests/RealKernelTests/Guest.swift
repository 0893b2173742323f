import Foundation
import OrientdTestSupport

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
    static let environment = [
        "PATH": "/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin", "ORIENTD_VM_DIR": "/run/orientd-vm-tests",
    ]

    /// `ORIENTD_VM_GUEST` (empty or unset: `bookworm-amd64`), as DIST-ARCH. A value
    /// scripts/vm does not take is its to refuse, with the accepted ones named.
    static let key: String = {
        let value = ProcessInfo.processInfo.environment["ORIENTD_VM_GUEST"] ?? ""
        return value.isEmpty ? "bookworm-amd64" : value
    }()
    /// Debian 12 amd64: the whole suite runs on it; the other guests run its core cases.
    static let isDefault = key == "bookworm-amd64"
    /// The Debian release (`bookworm`, `trixie`) and architecture (`amd64`, `arm64`).
    static let dist = String(key.prefix { $0 != "-" })
    static let arch = String(key.drop { $0 != "-" }.dropFirst())
    /// The guest in words, for messages: "Debian 13 arm64".
    static let name = "Debian \(["bookworm": "12", "trixie": "13"][dist] ?? dist) \(arch)"
    /// Before every scripts/vm subcommand.
    static let options = ["--dist", dist, "--arch", arch]
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
        // The .deb and the feeder from this checkout, not whatever an earlier build left.
        let targets = ["deb", "vm-tools", "DIST=\(dist)", "ARCH=\(arch)"]
        let make = try? OrientdProcess.run(
            ["-C", repository.path, "--no-print-directory"] + targets, environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["make"], timeout: 3600)
        guard let make else { return "make could not be started" }
        guard make.status == 0 else {
            return "make \(targets.joined(separator: " ")) failed (\(make.status)):\n\(make.stderr.suffix(3000))"
        }
        guard let result = try? scriptsVM(["boot", "--fresh", "--until-exit-of", "\(getpid())"]) else {
            return "scripts/vm could not be started"
        }
        return result.status == 0 ? nil : "scripts/vm boot (\(name)) failed (\(result.status)):\n\(result.stderr)"
    }()

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

    /// `scripts/vm play`: the recording through the kernel into the installed daemon.
    static func play(_ recording: String, _ arguments: [String] = []) throws -> OrientdProcess.Result {
        try booted(["play", recording] + arguments)
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
        if result.status != 0 { throw GuestError("scripts/vm boot --fresh failed (\(result.status)): \(result.stderr)") }
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
        let result = try run("reset_guest")
        if result.status != 0 { throw GuestError("resetting the guest failed: \(result.stderr)") }
    }
}

struct GuestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
