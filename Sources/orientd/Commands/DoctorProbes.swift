// FoundationEssentials, never Foundation: Foundation links ICU and its 38 MB of data into
// the static binary for JSONDecoder and Data alone (docs/development.md, "Size").
import FoundationEssentials
import Glibc
import OrientdClient
import OrientdCore
import OrientdIO
import OrientdLinux

/// What `orientd doctor` looks at on this machine, each turned into the plain values the
/// core's checks judge, or into a finding where the look itself is the check.
enum DoctorProbes {
    /// The configuration file, checked as `run` would read it.
    struct Settings {
        var finding: DoctorFinding
        var file: ConfigurationFile?

        func value(_ key: String) -> String? { file?.entries.last { $0.key == key }?.value }
    }

    static func configuration(_ path: String) -> Settings {
        if Glibc.access(path, F_OK) != 0 {
            return Settings(finding: DoctorFinding("configuration", .ok, "no \(path): the defaults"), file: nil)
        }
        switch ConfigurationSettings.load(path) {
        case .success(let loaded):
            let count = loaded.file.entries.count
            return Settings(
                finding: DoctorFinding("configuration", .ok, "\(path): \(count) setting\(count == 1 ? "" : "s")"), file: loaded.file)
        case .failure(let issues):
            let readable = ConfigurationSettings.readText(path)
            let file = (try? readable.get()).map { ConfigurationFile(parsing: $0, source: path) }
            return Settings(
                finding: DoctorFinding(
                    "configuration", .problem,
                    issues.list.map(\.description).joined(separator: "; ") + ": the service refuses to start with it",
                    fix: "correct those lines (man orientd.conf), then: orientd config check && systemctl restart orientd"),
                file: file)
        }
    }

    /// Whether the service's user (`orientd`, as the shipped unit runs) can read the
    /// sensor: its device node is given to the orientd group by the shipped udev rule.
    static func access(_ found: AccelerometerDiscovery.Found) -> DoctorFinding {
        let id = found.candidate.id
        let location = found.candidate.location
        let named = "\(id) (\(found.candidate.name ?? "no name"))" + (location == .unknown ? "" : ", the \(location.rawValue) sensor")
        guard let group = getgrnam("orientd") else {
            return DoctorFinding("sensor", .note, "\(named); no orientd group here, so orientd is not installed as a service")
        }
        let gid = group.pointee.gr_gid
        guard let node = found.udev?.devnode else {
            // No character device: read through its axis files, which sysfs lets anyone read.
            return DoctorFinding("sensor", .ok, "\(named), polled (no /dev node)")
        }
        var info = stat()
        guard stat(node, &info) == 0 else {
            return DoctorFinding(
                "sensor", .problem, "\(named): \(node) is missing", fix: "udevadm trigger --action=add /sys/bus/iio/devices/\(id)")
        }
        let mode = info.st_mode & 0o777
        let octal = String(mode, radix: 8)
        if (info.st_gid == gid && mode & 0o060 == 0o060) || mode & 0o006 == 0o006 {
            return DoctorFinding("sensor", .ok, "\(named); \(node) is the orientd group's (mode \(octal))")
        }
        return DoctorFinding(
            "sensor", .problem,
            "\(named): \(node) is not the orientd group's to read and write (group \(info.st_gid), mode \(octal)): "
                + "the service can only poll it, or not open it; orientd's udev rule did not run for it",
            fix: "udevadm trigger --action=add /sys/bus/iio/devices/\(id) (if that does not help, reinstall orientd: "
                + "its rule is /usr/lib/udev/rules.d/60-orientd.rules)")
    }

    /// A 2-in-1's display and base sensors and its tablet-mode switches.
    static func convertible(display: AccelerometerDiscovery.Found, base: AccelerometerDiscovery.Found?) -> DoctorFinding {
        let switches = (try? SwitchDiscovery.survey()) ?? []
        let named = switches.compactMap { node, result in (try? result.get()).map { "'\($0.0.name)' (\(node), now \($0.1.rawValue))" } }
        guard base != nil || !named.isEmpty else {
            return DoctorFinding("2-in-1", .ok, "not a convertible: no base accelerometer, no tablet-mode switch")
        }
        var parts = ["display \(display.candidate.id) (\(display.candidate.locationSource))"]
        if let base { parts.append("base \(base.candidate.id) (\(base.candidate.locationSource)): the hinge angle tells the mode") }
        if !named.isEmpty { parts.append("tablet-mode switch \(named.joined(separator: ", ")), which the hinge defers to") }
        return DoctorFinding("2-in-1", .ok, parts.joined(separator: "; "))
    }

    /// The service as systemd sees it, and its main process.
    struct Service {
        var finding: DoctorFinding
        var mainPID: Int32?
    }

    static func service() -> Service {
        let output: String
        do {
            output = try Tool.run(
                ["systemctl", "show", "orientd.service", "-p", "LoadState,ActiveState,SubState,Result,NRestarts,MainPID"],
                capture: true, seconds: 10)
        } catch {
            return Service(finding: DoctorFinding("service", .note, "cannot ask systemd: \(error)"), mainPID: nil)
        }
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        let pid = values["MainPID"].flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil }
        let state = "\(values["ActiveState"] ?? "?") (\(values["SubState"] ?? "?"))"
        switch (values["LoadState"], values["ActiveState"]) {
        case ("not-found", _):
            return Service(
                finding: DoctorFinding("service", .note, "orientd.service is not installed: orientd runs by hand here"), mainPID: nil)
        case (_, "active"):
            let restarts = values["NRestarts"] ?? "0"
            return Service(
                finding: DoctorFinding(
                    "service", .ok, "orientd.service \(state), pid \(pid.map(String.init) ?? "?"), restarted \(restarts) times"),
                mainPID: pid)
        case (_, "failed"):
            return Service(
                finding: DoctorFinding(
                    "service", .problem, "orientd.service \(state), result \(values["Result"] ?? "?")",
                    fix: "journalctl -u orientd -b says why; then systemctl restart orientd"), mainPID: nil)
        default:
            return Service(
                finding: DoctorFinding(
                    "service", .problem, "orientd.service \(state)",
                    fix: "systemctl start orientd (udev starts it when a sensor appears); journalctl -u orientd -b"), mainPID: pid)
        }
    }

    /// Every process's arguments, from /proc.
    static func processes() -> [RotatorCheck.Process] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [RotatorCheck.Process] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let bytes = try? WholeFile.read("/proc/\(name)/cmdline", limit: 65536), !bytes.isEmpty else {
                continue
            }
            let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            found.append(RotatorCheck.Process(pid: pid, arguments: arguments.last == "" ? Array(arguments.dropLast()) : arguments))
        }
        return found
    }

    /// The running daemon's `status`, or why there is none.
    struct NoDaemon: Error {
        var why: String
    }

    static func status(socket: String) -> Result<DaemonStatus, NoDaemon> {
        do {
            let client = try ControlClient(path: socket)
            try client.send("status")
            guard let line = try client.readLine(timeout: 5) else { return .failure(NoDaemon(why: "it closed the connection")) }
            let status = try JSONDecoder().decode(DaemonStatus.self, from: Data(line))
            return .success(status)
        } catch let error as DecodingError {
            return .failure(NoDaemon(why: "its status reply is not one this orientd reads: \(error)"))
        } catch {
            return .failure(NoDaemon(why: "\(error)"))
        }
    }

    /// The daemon's PATH, as its hooks are looked up on it (systemd's default when it
    /// cannot be read).
    static func path(of pid: Int32?) -> [String] {
        let fallback = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        let environment = pid.flatMap { try? WholeFile.read("/proc/\($0)/environ", limit: 65536) } ?? []
        let path =
            environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.first { $0.hasPrefix("PATH=") }
            .map { String($0.dropFirst(5)) } ?? fallback
        return path.split(separator: ":").map(String.init)
    }

    /// Whether a hook's program exists and may be run.
    static func canRun(_ command: String, path: [String]) -> Bool {
        guard let program = (try? HookCommand(parsing: command))?.arguments.first else { return false }
        if program.contains("/") { return Glibc.access(program, X_OK) == 0 }
        return path.contains { Glibc.access("\($0)/\(program)", X_OK) == 0 }
    }
}
