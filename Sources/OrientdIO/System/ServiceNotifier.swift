import Glibc
import SystemPackage

/// systemd's notify protocol (sd_notify(3)), written directly: one datagram per message
/// to the AF_UNIX socket named by NOTIFY_SOCKET (a path, or `@name` in the abstract
/// namespace). Small enough that libsystemd is not worth linking for it.
///
/// Without NOTIFY_SOCKET (not started by systemd) every call does nothing.
public final class ServiceNotifier {
    /// nil when there is no manager to tell (or no socket could be made).
    private let descriptor: FileDescriptor?
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    /// Half of WATCHDOG_USEC, as sd_watchdog_enabled(3) advises; nil when not asked for.
    public let watchdogInterval: Double?

    public init(environment: (String) -> String? = Environment.value) {
        var interval: Double?
        if let usec = environment("WATCHDOG_USEC").flatMap({ UInt64($0) }), usec > 0 {
            // WATCHDOG_PID, when set, must be this process.
            if let pid = environment("WATCHDOG_PID").flatMap({ Int32($0) }), pid != getpid() {
                interval = nil
            } else {
                interval = Double(usec) / 2e6
            }
        }
        watchdogInterval = interval
        guard let path = environment("NOTIFY_SOCKET"), !path.isEmpty,
            path.utf8.count < MemoryLayout.size(ofValue: address.sun_path)
        else {
            descriptor = nil
            return
        }
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // the abstract namespace
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        descriptor = try? FileDescriptor.socket(domain: AF_UNIX, type: Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }

    public var isActive: Bool { descriptor != nil }

    /// Sends `KEY=value` lines; failures are ignored, as sd_notify's callers do: the
    /// service must not stop because its manager cannot be told something.
    public func send(_ lines: String...) {
        guard let descriptor else { return }
        let message = Array(lines.joined(separator: "\n").utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                message.withUnsafeBytes { bytes in
                    try? descriptor.send(bytes, to: target, length: addressLength, flags: Int32(MSG_NOSIGNAL), retryOnInterrupt: false)
                }
            }
        }
    }

    public func ready(status: String) { send("READY=1", "STATUS=\(status)") }
    public func status(_ text: String) { send("STATUS=\(text)") }
    public func watchdog() { send("WATCHDOG=1") }
    public func stopping(status: String) { send("STOPPING=1", "STATUS=\(status)") }

    deinit {
        try? descriptor?.close()
    }
}
