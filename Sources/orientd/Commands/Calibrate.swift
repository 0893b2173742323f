import ArgumentParser
import Glibc
import OrientdCore
import OrientdIO
import OrientdLinux

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the accelerometer's mount matrix from poses you hold, and print (or apply) the entry that fixes it.",
        discussion: """
            When the screen turns the wrong way, upside down, or to landscape when you hold \
            it upright, the accelerometer is mounted turned or flipped and this machine has \
            no entry in systemd's hwdb. Run this in a terminal on the machine: it asks you \
            to hold it upright, to lay it flat, and to turn it a quarter; each pose is taken \
            once the device has been still for 2 s (a move starts it again). It prints the \
            mount matrix, what it does in words, a systemd hwdb entry for this machine \
            (ready to send upstream) and the orientd.conf line that does the same for \
            orientd alone.

            A 2-in-1's base (keyboard) sensor: --base, the machine folded into a tablet \
            and held through the same poses.

            --apply (as root) writes the entry to /etc/udev/hwdb.d/61-orientd-display.hwdb \
            (61-orientd-base.hwdb for the base), \
            runs systemd-hwdb update and udevadm trigger for the sensor (a running orientd \
            reads it again with the new matrix, no restart), and checks that upright now \
            reads upright. It says what it changed and how to undo it.

            The poses can come from recordings instead (orientd record, one file a pose, \
            or one recording whose 'expect' column names them), for scripts and tests. \
            Exit status 0 when the matrix is known (and applied), 1 when the poses cannot \
            decide it or the check after --apply fails, 65 for a recording without the \
            poses, 69 without a sensor.

            Examples:
              orientd calibrate
              sudo orientd calibrate --apply
              orientd calibrate --upright up.csv --flat flat.csv --turned turned.csv --json
              orientd calibrate poses.csv
              sudo orientd calibrate --base --apply
            """
    )

    @Argument(
        help: ArgumentHelp(
            "A recording whose 'expect' column names the poses held (portrait, face-up, landscape-right ...).",
            valueName: "recording"))
    var recording: String?

    @Option(help: ArgumentHelp("A recording of the device held upright (top edge up).", valueName: "file"))
    var upright: String?

    @Option(help: ArgumentHelp("A recording of the device lying flat, screen up.", valueName: "file"))
    var flat: String?

    @Option(
        help: ArgumentHelp(
            "A recording of the device turned a quarter clockwise (left edge up).",
            discussion: "Without it the poses cannot tell a mounting from its mirror image.", valueName: "file"))
    var turned: String?

    @Option(help: ArgumentHelp("Seconds each pose must be held still.", valueName: "seconds"))
    var hold: Double = 2

    @Flag(help: "Write the hwdb entry, update the hwdb, trigger the sensor and check the result (needs root).")
    var apply = false

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Calibrate this accelerometer: an IIO id, a name or a label (see 'orientd list').",
            discussion: "Example: --device iio:device1", valueName: "device"))
    var device: String?

    @Flag(
        help: ArgumentHelp(
            "Calibrate a 2-in-1's base (keyboard) accelerometer: the poses are held folded into a tablet.",
            discussion: """
                The base, folded behind the screen, turns with it: the same poses give its \
                matrix (base-mount-matrix, 61-orientd-base.hwdb). Implied when --device \
                names a base sensor.
                """))
    var base = false

    func validate() throws {
        guard hold.isFinite, hold >= 0.5, hold <= 30 else { throw ValidationError("--hold must be between 0.5 and 30 s, got \(hold)") }
        if recording != nil && (upright != nil || flat != nil || turned != nil) {
            throw ValidationError("give either one labelled recording or --upright/--flat/--turned, not both")
        }
        if (upright == nil) != (flat == nil) || (turned != nil && upright == nil) {
            throw ValidationError("--upright and --flat go together (and --turned with them)")
        }
    }

    func run() throws {
        do {
            try calibrate()
        } catch let failure {
            Diagnostics().error(failure.message)
            throw ExitCode(failure.status)
        }
    }

    private func calibrate() throws(CalibrationFailure) {
        let capture = PoseCapture(holdSeconds: hold)
        let here = Self.sensorHere(device, base: base)
        let isBase = base || here?.found.candidate.location == .base
        // What the sensor being calibrated reads in each pose the person holds.
        func expected(_ pose: DeviceOrientation) -> DeviceOrientation { isBase ? pose.foldedBase : pose }
        let sensor = here?.found.candidate.id ?? device
        var live: LivePoses?
        defer { live?.stop() }
        func reader() throws(CalibrationFailure) -> LivePoses {
            if let live { return live }
            // Raw readings (an identity override): the matrix in force does not matter,
            // and a udev change of it does not make the reader open the sensor again.
            let made = try LivePoses(
                configuration: SensorReader.Configuration(
                    uri: nil, device: sensor, mountMatrixOverride: .identity, rate: 50, adaptiveRate: .off, forcePolling: true,
                    wait: false, location: isBase && sensor == nil ? .base : .display))
            live = made
            return made
        }

        let poses: [HeldPose]
        if let recording {
            poses = try RecordedPoses.poses(fromLabelled: recording, capture: capture).map {
                HeldPose(expected($0.pose), reading: $0.reading)
            }
        } else if let upright, let flat {
            var held = [
                try RecordedPoses.pose(expected(.portrait), from: upright, capture: capture),
                try RecordedPoses.pose(expected(.faceUp), from: flat, capture: capture),
            ]
            if let turned { held.append(try RecordedPoses.pose(expected(.landscapeRight), from: turned, capture: capture)) }
            poses = held
        } else {
            guard isatty(0) == 1 else {
                throw CalibrationFailure(
                    "orientd calibrate asks a person to hold the device: run it in a terminal, or give the poses as recordings "
                        + "(--upright FILE --flat FILE --turned FILE, from orientd record)", status: .usage)
            }
            let poses = try reader()
            let info = try poses.sensor()
            LivePoses.say(
                "Calibrating \(info.candidate.id) (\(info.candidate.name ?? "no name")). Each pose is taken once the device "
                    + "has been still for \(JSONLineWriter.number(hold, decimals: 1)) s; a move starts it again.")
            if isBase {
                LivePoses.say(
                    "This is the base (keyboard) sensor: fold the machine into a tablet, the keyboard behind the screen, "
                        + "and hold it by the screen as asked.")
            }
            var held: [HeldPose] = []
            for (pose, words) in Self.asked {
                held.append(try poses.take(expected(pose), words: words, capture: capture, ask: true))
            }
            try report(fit: try Self.fit(held), poses: held, here: here, isBase: isBase, live: poses)
            return
        }
        let fit = try Self.fit(poses)
        try report(fit: fit, poses: poses, here: here, isBase: isBase, live: apply ? try reader() : nil)
    }

    /// The poses asked for, in words for the person holding the device.
    static let asked: [(DeviceOrientation, String)] = [
        (.portrait, "Hold the device upright, the way you read it (top edge up)"),
        (.faceUp, "Lay it flat on a table, screen up"),
        (.landscapeRight, "Hold it upright again, turned a quarter clockwise (left edge up)"),
    ]

    static func fit(_ poses: [HeldPose]) throws(CalibrationFailure) -> MountMatrixFit {
        do {
            return try MountMatrixFit.fit(poses)
        } catch {
            throw CalibrationFailure("the poses give no mount matrix: \(error)", status: .failure)
        }
    }
}

extension Calibrate {
    /// The sensor on this machine the entry is for, and the matrix in force on it.
    struct Here {
        var found: AccelerometerDiscovery.Found
        var lookup: HwdbLookup?
        var inForce: MountMatrix
        var source: MountMatrixSource
        /// Another accelerometer that udev looks up by the same key (the same parent
        /// modalias and no label that differs): an entry for one would match both.
        var sharesKeyWith: String?
    }

    /// The sensor `device` names; else a 2-in-1's base sensor with `base`, else the
    /// display's.
    static func sensorHere(_ device: String?, base: Bool = false) -> Here? {
        guard let found = try? AccelerometerDiscovery(uri: nil, mountMatrixOverride: nil, rate: 50).find() else { return nil }
        let picked =
            device == nil && base
            ? SensorChoice.chooseBase(from: found, candidate: \.candidate)
            : try? SensorChoice.choose(from: found, candidate: \.candidate, requested: device).get()
        return picked.flatMap { here($0, among: found) }
    }

    /// What is known of `chosen`, one of the accelerometers discovery `found`.
    static func here(_ chosen: AccelerometerDiscovery.Found, among found: [AccelerometerDiscovery.Found]) -> Here? {
        guard let udev = chosen.udev else { return nil }
        let lookup = HwdbLookup(syspath: udev.syspath)
        let twin = found.first { other in
            guard other.candidate.id != chosen.candidate.id, let path = other.udev?.syspath, let theirs = HwdbLookup(syspath: path) else {
                return false
            }
            return theirs.parentModalias == lookup?.parentModalias && theirs.label == lookup?.label
        }
        let resolved = MountMatrix.resolve(
            device: chosen.candidate.id, udevProperty: udev.properties["ACCEL_MOUNT_MATRIX"],
            attribute: { name in
                (try? WholeFile.read(udev.syspath + "/" + name, limit: 4096)).map { String(decoding: $0, as: UTF8.self) }
            })
        return Here(
            found: chosen, lookup: lookup, inForce: resolved.matrix, source: resolved.source, sharesKeyWith: twin?.candidate.id)
    }
}
