/// Whether something else also turns the screen (`orientd doctor`): iio-sensor-proxy
/// and the desktops that rotate through it (GNOME, Phosh, KDE), rot8, or a second orientd.
public enum RotatorCheck {
    /// A running program: its process id and its arguments (`/proc/PID/cmdline`).
    public struct Process: Equatable, Sendable {
        public var pid: Int32
        public var arguments: [String]

        public init(pid: Int32, arguments: [String]) {
            self.pid = pid
            self.arguments = arguments
        }

        /// The program's file name, whatever path started it (comm is cut at 15 bytes).
        var program: String { arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? "" }
    }

    /// GNOME's rotation lock, which Phosh obeys too.
    static let gnomeRotationLock = "gsettings set org.gnome.settings-daemon.peripherals.touchscreen orientation-lock true"

    /// - Parameters:
    ///   - processes: every process on the machine.
    ///   - daemon: the service's own orientd, and the doctor itself: neither is another.
    public static func judge(_ processes: [Process], daemon: Int32?, doctor: Int32) -> DoctorFinding {
        let named = { (name: String) in processes.filter { $0.program == name } }
        var others: [String] = []
        var fixes: [String] = []
        if let proxy = named("iio-sensor-proxy").first {
            var consumers: [String] = []
            if !named("gnome-shell").isEmpty {
                consumers.append(
                    "GNOME (gnome-shell) turns the screen through it unless its rotation is locked (orientd-rotate-gnome locks it while it runs)"
                )
                fixes.append("in GNOME, lock its rotation: \(gnomeRotationLock)")
            }
            if !named("phosh").isEmpty {
                consumers.append(
                    "Phosh turns the screen through it unless its rotation is locked (orientd-rotate-wlroots locks it while it runs)")
                fixes.append("in Phosh, lock its rotation (the quick setting): \(gnomeRotationLock)")
            }
            if !(named("kwin_wayland") + named("kwin_x11")).isEmpty {
                consumers.append(
                    "KDE (kwin) turns a built-in panel through it unless its orientation is Manual (Plasma Mobile: unless Auto-rotate is off; orientd-rotate-kde switches it off while it runs, with qml6)"
                )
                fixes.append(
                    "in KDE Plasma, System Settings > Display & Monitor (Plasma 5: Display Configuration) > Orientation: Manual; in Plasma Mobile, Auto-rotate off in the quick settings"
                )
            }
            if !named("monitor-sensor").isEmpty { consumers.append("monitor-sensor reads it (a rotation script?)") }
            others.append(
                "iio-sensor-proxy (pid \(proxy.pid)) reads the same sensor"
                    + (consumers.isEmpty
                        ? "; whatever uses it (a desktop, a monitor-sensor script) may turn the screen too"
                        : ": " + consumers.joined(separator: "; ")))
            fixes.append("if nothing else needs it: systemctl mask --now iio-sensor-proxy")
        }
        for rot8 in named("rot8") {
            others.append("rot8 (pid \(rot8.pid)) turns the screen too")
            fixes.append("stop rot8 (and remove it from the compositor's autostart)")
        }
        let orientds = named("orientd").filter { $0.pid != daemon && $0.pid != doctor && $0.arguments.dropFirst().first == "run" }
        for second in orientds {
            others.append("another orientd (pid \(second.pid): \(second.arguments.joined(separator: " "))) runs beside the service")
            fixes.append("stop the one not wanted (kill \(second.pid), or systemctl disable --now orientd)")
        }
        guard !others.isEmpty else {
            return DoctorFinding("other rotators", .ok, "none: no iio-sensor-proxy, rot8 or second orientd running")
        }
        return DoctorFinding("other rotators", .problem, others.joined(separator: "; "), fix: fixes.joined(separator: "; "))
    }
}
