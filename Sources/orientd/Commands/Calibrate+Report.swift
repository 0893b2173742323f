import Glibc
import OrientdCore
import OrientdIO
import OrientdLinux

extension Calibrate {
    /// Prints what the poses give (text or JSON on standard output), then applies it with
    /// `--apply`. `live`: the sensor, read again to check after applying.
    func report(fit: MountMatrixFit, poses: [HeldPose], here: Here?, isBase: Bool, live: LivePoses?) throws(CalibrationFailure) {
        let words = MountDescription(fit.matrix)
        // No entry when another sensor has the same key: it would get this matrix too.
        let entry =
            here?.sharesKeyWith == nil
            ? here?.lookup.map { HwdbEntry(modalias: $0.parentModalias, dmi: $0.dmi, label: $0.label, matrix: fit.matrix) } : nil
        let path = HwdbInstall.path(for: isBase ? .base : .display)
        // The matrix in force says something only about poses held on this machine.
        let thisMachine = live != nil && here != nil
        let misread: [String] =
            thisMachine
            ? poses.compactMap { held in
                let seen = DeviceOrientation.nearest(to: here!.inForce.apply(held.reading))
                return seen == held.pose ? nil : "held \(held.pose), it read as \(seen)"
            } : []
        let conf = "\(isBase ? "base-mount-matrix" : "mount-matrix") = \(fit.matrix)"
        let offBy = zip(poses, fit.offBy).map { "\(JSONLineWriter.number($1, decimals: 1))° (\($0.pose))" }.joined(separator: ", ")

        if json {
            var w = JSONLineWriter()
            w.add("matrix", fit.matrix.description)
            w.add("exact", fit.exact)
            w.add("poses", strings: poses.map(\.pose.rawValue))
            w.add("offBy", strings: fit.offBy.map { JSONLineWriter.number($0, decimals: 2) })
            w.add("axes", words?.axes)
            w.add("mounting", words?.mounting)
            w.add("mirror", fit.undecided?.mirror.description)
            w.add("device", here?.found.candidate.id)
            w.add("sensor", isBase ? "base" : "display")
            w.add("inForce", thisMachine ? here?.inForce.description : nil)
            w.add("inForceSource", thisMachine ? here?.source.rawValue : nil)
            w.add("misread", strings: misread)
            w.add("hwdb", fit.undecided == nil ? entry?.text : nil)
            w.add("sharesKeyWith", here?.sharesKeyWith)
            w.add("hwdbFile", path)
            w.add("conf", conf)
            print(String(decoding: w.line(), as: UTF8.self), terminator: "")
        } else {
            print("mount matrix    \(fit.matrix)")
            if let words { print("in words        \(words)") }
            if fit.exact {
                print("fit             an exact quarter turn; the poses read \(offBy) from it")
            } else {
                print("fit             not a quarter turn: the sensor sits at an angle; the poses read \(offBy) from this rotation")
            }
            if let undecided = fit.undecided {
                print(
                    "undecided       no pose showed the \(["x", "y", "z"][undecided.axis]) axis, so its mirror image fits as well: "
                        + "\(undecided.mirror)")
            }
            if thisMachine, let here {
                let verdict = misread.isEmpty ? "right already" : misread.joined(separator: "; ")
                print("in force now    \(here.inForce) (\(here.source.rawValue)): \(verdict)")
            }
            if fit.undecided == nil {
                print("")
                if let entry {
                    print("The systemd hwdb entry for this machine (for \(path); to send upstream, see the top of")
                    print("/usr/lib/udev/hwdb.d/60-sensor.hwdb). sudo orientd calibrate --apply puts it in force.")
                    print("")
                    print(entry.text)
                } else if let here, let twin = here.sharesKeyWith {
                    print(Self.sharedKey(here.found.candidate.id, twin))
                    print("")
                } else {
                    print("No accelerometer here to write a hwdb entry for: run orientd calibrate on the machine itself.")
                    print("")
                }
                print("Or, for orientd alone, in /etc/orientd.conf (the desktop's own rotation still needs the hwdb):")
                print("")
                print(conf)
            }
        }
        if fit.undecided != nil {
            throw CalibrationFailure(
                "the poses cannot tell the mounting from its mirror image: hold the device turned a quarter as well "
                    + "(--turned FILE, or run orientd calibrate in a terminal)", status: .failure)
        }
        if apply, let live { try applyEntry(fit: fit, entry: entry, here: here, isBase: isBase, path: path, live: live) }
    }

    /// `--apply`: the entry in force, udev seen to give it, and the sensor read again.
    private func applyEntry(
        fit: MountMatrixFit, entry: HwdbEntry?, here: Here?, isBase: Bool, path: String, live: LivePoses
    ) throws(CalibrationFailure) {
        if let here, let twin = here.sharesKeyWith {
            throw CalibrationFailure(Self.sharedKey(here.found.candidate.id, twin), status: .unavailable)
        }
        guard let here, let lookup = here.lookup, let entry else {
            throw CalibrationFailure(
                "no accelerometer here whose hwdb key is known (no parent on the usb, i2c or platform bus with a modalias): "
                    + "use the orientd.conf line instead", status: .unavailable)
        }
        guard geteuid() == 0 else {
            throw CalibrationFailure(
                "--apply writes \(HwdbInstall.directory) and runs systemd-hwdb: run it as root (sudo orientd calibrate --apply)",
                status: .cannotCreate)
        }
        let undo = HwdbInstall.undo(path: path, syspath: lookup.syspath)
        try HwdbInstall.install(
            entry,
            comment: [
                "Written by orientd calibrate (orientd \(OrientdRelease.version)) for \(here.found.candidate.id) "
                    + "(\(here.found.candidate.name ?? "no name")) on this machine.",
                MountDescription(fit.matrix).map { "\($0)." } ?? "Not a quarter turn: the sensor sits at an angle.",
                "To undo: \(undo)",
            ], path: path, syspath: lookup.syspath)
        // udev's own view: the entry matches and nothing later overrides it.
        let id = here.found.candidate.id
        let now = Self.sensorHere(id)
        guard let now, now.source == .udev, now.inForce == fit.matrix else {
            let seen = now.map { "\($0.inForce) (\($0.source.rawValue))" } ?? "no sensor"
            throw CalibrationFailure(
                "after writing \(path) and triggering \(lookup.syspath), udev gives \(seen), not \(fit.matrix): another entry "
                    + "wins or the match misses (udevadm info \(lookup.syspath)); undo with: \(undo)", status: .failure)
        }
        let interactive = isatty(0) == 1 && recording == nil && upright == nil
        let upright: DeviceOrientation = isBase ? DeviceOrientation.portrait.foldedBase : .portrait
        let check = try live.take(
            upright, words: "Hold the device upright again\(isBase ? ", still folded," : ""), to check",
            capture: PoseCapture(holdSeconds: hold), ask: interactive)
        let reads = fit.matrix.apply(check.reading)
        let seen = DeviceOrientation.nearest(to: reads)
        let off = MountMatrixFit.degrees(between: reads, upright.reading!)
        guard seen == upright else {
            throw CalibrationFailure(
                "held upright, the sensor now reads as \(seen) (\(Int(off.rounded()))° off upright): were the poses held as asked? "
                    + "Undo with: \(undo)", status: .failure)
        }
        LivePoses.say(
            """
            Changed: wrote \(path), ran systemd-hwdb update and udevadm trigger for \(lookup.syspath); udev now gives \
            ACCEL_MOUNT_MATRIX=\(fit.matrix). Held upright, the sensor now reads upright \
            (\(JSONLineWriter.number(off, decimals: 1))° off). A running orientd reads the sensor again with it, no restart.
            To undo: \(undo)
            """)
    }

    /// Why no hwdb entry is written for a sensor another one looks like to udev.
    static func sharedKey(_ id: String, _ twin: String) -> String {
        "no hwdb entry: \(id) and \(twin) look the same to udev (the same parent modalias, no label to tell them apart), "
            + "so an entry for one would give both this matrix; use the orientd.conf line"
    }
}
