/// What a running daemon's state says about "it does not rotate" (`orientd doctor`):
/// one line each for the lock, the apps' requests, the mode and the hooks, and one for
/// its sensor when that has gone silent.
public enum DaemonCheck {
    /// - Parameter executable: whether a hook's program can be run (`PATH` searched as the
    ///   daemon's own would be), given its command line.
    public static func judge(_ status: DaemonStatus, executable: (String) -> Bool) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if let trouble = status.sensorTrouble { findings.append(sensor(trouble)) }
        if let lock = status.lock {
            findings.append(
                DoctorFinding(
                    "lock", .problem, "locked to \(lock.joined(separator: ", ")): the screen stays \(status.type) whatever the device does",
                    fix: "orientd ctl unlock (or the desktop's rotation-lock button, if it drives orientd)"))
        } else {
            findings.append(DoctorFinding("lock", .ok, "unlocked; the screen is \(status.type), the device \(status.device)"))
        }
        if !status.requests.isEmpty {
            let requests = status.requests.map { "\($0.by) asks for \($0.requested.joined(separator: ", "))" }.joined(separator: "; ")
            findings.append(
                DoctorFinding(
                    "requests", .note, "\(requests) (the newest is in force while its connection lasts)",
                    fix: "close the app, or let it release its request"))
        }
        if let mode = status.mode {
            let source = status.modeSource.map { " (from the \($0))" } ?? ""
            if mode == "laptop" && status.rotateIn == "tablet" {
                findings.append(
                    DoctorFinding(
                        "mode", .problem, "laptop mode\(source): the screen turns only in tablet mode (rotate-in = tablet)",
                        fix: "fold it into tablet mode; or orientd ctl mode tablet; or rotate-in = always in /etc/orientd.conf"))
            } else {
                findings.append(
                    DoctorFinding(
                        "mode", .ok,
                        "\(mode) mode\(source); the screen turns in \(status.rotateIn == "tablet" ? "tablet mode" : "every mode")"))
            }
        }
        findings.append(hooks(status, executable: executable))
        return findings
    }

    /// Doctor's own readings of `device` are not judged when the daemon's trouble says
    /// they cannot be: a hung sensor's reads each wait out the driver's time-out and give
    /// 0, a frozen one's are the frozen value. The note said instead; nil: read it.
    public static func readingsNotJudged(_ trouble: DaemonStatus.Trouble?, device: String) -> DoctorFinding? {
        guard let trouble, trouble.device == device else { return nil }
        let why: String
        switch trouble.kind {
        case .hung: why = "\(device) hung (below), and each read would wait on its driver's time-out"
        case .frozen: why = "the values of \(device) frozen (below)"
        case .stalled, .polled, nil: return nil
        }
        return DoctorFinding("readings", .note, "not judged: the daemon finds \(why)")
    }

    static func sensor(_ trouble: DaemonStatus.Trouble) -> DoctorFinding {
        let silent = JSONLineWriter.number(trouble.silent, decimals: 0)
        let what =
            switch trouble.kind {
            case .polled:
                "the buffer of \(trouble.device) has sent nothing for \(silent) s, though the sensor answers reads: orientd reads "
                    + "it polled meanwhile (more wake-ups), and tries the buffer again after 10 s, then every minute at most"
            case .hung:
                "\(trouble.device) answers nothing (hung): its buffer has sent nothing for \(silent) s, and a write of its "
                    + "sampling frequency waits on the driver's time-outs: orientd waits for it, reads on the moment it sends, "
                    + "and writes its rate again after 10 s, then every minute at most"
            case .frozen:
                "the values of \(trouble.device) have not changed for \(silent) s, to the last bit, where a real sensor's values move "
                    + "with noise: its chip lost its settings or power, or its hub repeats one value; no turn can be seen "
                    + "until they change, and orientd says so in the journal when they do"
            case .stalled, nil:
                "\(trouble.device) has sent nothing for \(silent) s (stalled): orientd has written its rate again, and reads it "
                    + "polled if its values answer, or waits for it to send"
            }
        return DoctorFinding(
            "sensor", .problem, what,
            fix: "journalctl -u orientd -b (what orientd saw); journalctl -k | grep -i -e iio -e hid -e accel (the driver's "
                + "messages); a suspend and resume, or unloading and loading the driver's module, wakes many a dead sensor")
    }

    static func hooks(_ status: DaemonStatus, executable: (String) -> Bool) -> DoctorFinding {
        guard !status.hookCommands.isEmpty else {
            return DoctorFinding(
                "hooks", .note, "none: orientd turns nothing itself; a compositor script or a socket client must",
                fix:
                    "exec = orientd-rotate-sway (or -x11, -wlroots, -hyprland, -niri) in /etc/orientd.conf; GNOME, KDE: orientd monitor | orientd-rotate-gnome (or -kde) in the session's autostart"
            )
        }
        var problems: [String] = []
        let unrunnable = status.hookCommands.filter { !executable($0) }
        for command in unrunnable {
            problems.append("'\(command)' cannot be run (not found on the daemon's PATH, or not executable)")
        }
        for failed in status.failedHooks where !unrunnable.contains(failed.command) {
            problems.append("'\(failed.command)' failed the last time: \(failed.error)")
        }
        guard problems.isEmpty else {
            return DoctorFinding(
                "hooks", .problem, problems.joined(separator: "; "),
                fix: "chmod +x the script, or give its full path in exec =; run it by hand to see why it fails (journalctl -u orientd)")
        }
        return DoctorFinding(
            "hooks", .ok, "\(status.hookCommands.count) hook(s), each executable: \(status.hookCommands.joined(separator: ", "))")
    }
}
