import Foundation
import Testing

@testable import OrientdCore

/// `orientd calibrate`'s core: holding a pose, the mount matrix from held poses, the
/// matrix in words, and the hwdb entry.
@Suite("Calibration")
struct CalibrationTests {
    /// What a sensor mounted with `matrix` reads in `pose`: raw = Mᵀ · corrected, the
    /// device tilted by `tilt` degrees towards its z axis (a hand) and offset by `noise`.
    static func reading(
        _ pose: DeviceOrientation, mountedWith matrix: MountMatrix, tilt: Double = 0, noise: Vector3 = .zero
    ) -> Vector3 {
        let direction = pose.reading!
        let radians = tilt * .pi / 180
        let tilted =
            direction.z == 0
            ? direction * cos(radians) + Vector3(0, 0, sin(radians)) : direction * cos(radians) + Vector3(0, sin(radians), 0)
        return matrix.transposed.apply(tilted * standardGravity) + noise
    }

    // MARK: holding a pose

    @Test("a pose held still for 2 s is averaged; motion starts the stretch again and is said")
    func poseCapture() {
        var capture = PoseCapture(holdSeconds: 2, tolerance: 0.6)
        let upright = Vector3(0, -9.8, 0)
        var progress: [PoseCapture.Progress] = []
        // 1 s still, a jolt, then 2 s still with a little tremor.
        for i in 0..<50 { progress.append(capture.add(Sample(time: Double(i) * 0.02, acceleration: upright))) }
        progress.append(capture.add(Sample(time: 1.0, acceleration: Vector3(3, -9, 1))))
        guard case .moving(let deviation) = progress.last else {
            Issue.record("the jolt is not motion: \(String(describing: progress.last))")
            return
        }
        #expect(abs(deviation - (Vector3(3, -9, 1) - upright).length) < 1e-9)
        guard case .holding(let share) = progress[49] else {
            Issue.record("not holding after 1 s still: \(progress[49])")
            return
        }
        #expect(abs(share - 0.49) < 1e-9)
        var last: PoseCapture.Progress?
        for i in 1...150 {
            let tremor = Vector3(i.isMultiple(of: 2) ? 0.1 : -0.1, 0, 0)
            last = capture.add(Sample(time: 1.0 + Double(i) * 0.02, acceleration: upright + tremor))
            if case .held = last { break }
        }
        // The jolt began a stretch that the next sample ended (it was the jolt that moved);
        // from that sample on, 2 s still, the tremor averaging out.
        guard case .held(let mean, let samples) = last else {
            Issue.record("not held after 2 s still: \(String(describing: last))")
            return
        }
        #expect((100...102).contains(samples), "\(samples)")
        #expect((mean - upright).length < 0.1)
    }

    @Test("a pose that never settles is never held")
    func neverSettles() {
        var capture = PoseCapture()
        for i in 0..<500 {
            let swing = Vector3(sin(Double(i) * 0.3) * 4, -9, 0)
            if case .held = capture.add(Sample(time: Double(i) * 0.02, acceleration: swing)) {
                Issue.record("held while swinging at sample \(i)")
                return
            }
        }
    }

    // MARK: the fit

    @Test("three poses give back every quarter-turn mounting exactly, held by a hand (8° off, noise)")
    func threePosesEveryMounting() throws {
        for matrix in MountMatrix.quarterTurns {
            let poses = [
                HeldPose(.portrait, reading: Self.reading(.portrait, mountedWith: matrix, tilt: 8, noise: Vector3(0.1, -0.05, 0.08))),
                HeldPose(.faceUp, reading: Self.reading(.faceUp, mountedWith: matrix, tilt: 2)),
                HeldPose(.landscapeLeft, reading: Self.reading(.landscapeLeft, mountedWith: matrix, tilt: -6)),
            ]
            let fit = try MountMatrixFit.fit(poses)
            #expect(fit.matrix == matrix, "mounted \(matrix)")
            #expect(fit.exact && fit.undecided == nil)
            #expect(fit.offBy[0] > 7 && fit.offBy[0] < 9, "\(fit.offBy)")
        }
    }

    @Test("upright and flat cannot tell a mounting from its mirror along x: both are given, the turn first")
    func twoPosesLeaveXUndecided() throws {
        for matrix in MountMatrix.quarterTurns {
            let poses = [
                HeldPose(.portrait, reading: Self.reading(.portrait, mountedWith: matrix)),
                HeldPose(.faceUp, reading: Self.reading(.faceUp, mountedWith: matrix)),
            ]
            let fit = try MountMatrixFit.fit(poses)
            let undecided = try #require(fit.undecided)
            #expect(undecided.axis == 0)
            #expect(Set([fit.matrix, undecided.mirror]) == Set([matrix, matrix.negatingRow(0)]))
            #expect(fit.matrix.determinant > 0, "the proper turn comes first")
        }
    }

    @Test("every exact matrix in systemd's hwdb comes back from three held poses")
    func everyHwdbMatrix() throws {
        guard FileManager.default.fileExists(atPath: HwdbMountMatrixTests.path) else {
            Issue.record("\(HwdbMountMatrixTests.path) is missing: install Debian's 'udev' package")
            return
        }
        var checked = 0
        for (line, text) in try HwdbMountMatrixTests.entries() {
            let matrix = try MountMatrix(parsing: text)
            guard MountMatrix.quarterTurns.contains(matrix) else { continue }
            let poses = [DeviceOrientation.portrait, .faceUp, .landscapeRight].map {
                HeldPose($0, reading: Self.reading($0, mountedWith: matrix, tilt: 5))
            }
            #expect(try MountMatrixFit.fit(poses).matrix == matrix, "\(HwdbMountMatrixTests.path):\(line)")
            checked += 1
        }
        // Not vacuous: Debian 12's hwdb (systemd 252) has 201 such entries, Debian 13's
        // (systemd 257, where the arm64 tests read it) 149.
        #expect(checked >= 140, "only \(checked) quarter-turn entries")
    }

    @Test("a sensor mounted at an angle gets the rotation the poses show, marked not exact")
    func mountedAtAnAngle() throws {
        // Turned 30° in the screen's plane.
        let (c, s) = (cos(Double.pi / 6), sin(Double.pi / 6))
        let matrix = MountMatrix(Vector3(c, -s, 0), Vector3(s, c, 0), Vector3(0, 0, 1))
        let poses = [DeviceOrientation.portrait, .faceUp, .landscapeLeft].map {
            HeldPose($0, reading: Self.reading($0, mountedWith: matrix))
        }
        let fit = try MountMatrixFit.fit(poses)
        #expect(!fit.exact)
        #expect(fit.offBy.allSatisfy { $0 < 0.1 }, "\(fit.offBy)")
        #expect(abs(fit.matrix.row0.x - c) < 0.001 && abs(fit.matrix.row1.x - s) < 0.001, "\(fit.matrix)")
        #expect(MountDescription(fit.matrix) == nil)
    }

    @Test(
        "poses that contradict each other, or a sensor that reads nothing, are refused in words",
        arguments: [
            (
                [HeldPose(.portrait, reading: Vector3(0, -9.8, 0)), HeldPose(.faceUp, reading: Vector3(0, -9.5, 2))],
                "read 12° apart, not 90°"
            ),
            ([HeldPose(.portrait, reading: Vector3(0, -9.8, 0)), HeldPose(.portrait, reading: Vector3(0, -9.8, 0))], "point the same way"),
            ([HeldPose(.portrait, reading: Vector3(0, 0.1, 0)), HeldPose(.faceUp, reading: Vector3(0, 0, 9.8))], "read almost nothing"),
            ([HeldPose(.unknown, reading: Vector3(0, -9.8, 0)), HeldPose(.faceUp, reading: Vector3(0, 0, 9.8))], "not a pose to hold"),
        ])
    func refused(poses: [HeldPose], message: String) {
        #expect {
            try MountMatrixFit.fit(poses)
        } throws: { error in
            (error as? MountMatrixFit.Problem)?.description.contains(message) == true
        }
    }

    // MARK: in words

    @Test(
        "a matrix in words: the axes, and how the sensor sits",
        arguments: [
            ("1, 0, 0; 0, 1, 0; 0, 0, 1", "no change: the sensor sits square with the screen"),
            (
                "0, 1, 0; 1, 0, 0; 0, 0, -1",
                "x and y swapped, z inverted: the sensor is mounted turned 90° counter-clockwise (seen from the front) and flipped (facing the back)"
            ),
            (
                "0, -1, 0; 1, 0, 0; 0, 0, 1",
                "x and y swapped, x inverted: the sensor is mounted turned 90° counter-clockwise (seen from the front)"
            ),
            ("0, 1, 0; -1, 0, 0; 0, 0, 1", "x and y swapped, y inverted: the sensor is mounted turned 90° clockwise (seen from the front)"),
            ("-1, 0, 0; 0, -1, 0; 0, 0, 1", "x and y inverted: the sensor is mounted turned 180°"),
            ("1, 0, 0; 0, -1, 0; 0, 0, -1", "y and z inverted: the sensor is mounted flipped (facing the back)"),
            ("0, 1, 0; 1, 0, 0; 0, 0, 1", "x and y swapped: the sensor's axes are a mirror image of the screen's"),
            ("0, 0, 1; 0, 1, 0; -1, 0, 0", "x and z swapped, z inverted: the sensor stands on its edge"),
            ("0, 1, 0; 0, 0, 1; 1, 0, 0", "axes taken round (x reads the sensor's y, y its z, z its x): the sensor stands on its edge"),
        ])
    func inWords(matrix: String, words: String) throws {
        let description = try #require(MountDescription(try MountMatrix(parsing: matrix)))
        #expect(description.description.hasPrefix(words), "\(description)")
    }

    @Test("the words of a turn agree with what the turn does to an upright reading")
    func wordsAgreeWithTheTurn() throws {
        // A sensor turned 90° counter-clockwise: its own x points where the device's y does,
        // so upright (device (0, -g, 0)) reads -g on the sensor's x.
        let matrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        #expect(matrix.transposed.apply(Vector3(0, -1, 0)) == Vector3(-1, 0, 0))
        #expect(MountDescription(matrix)?.mounting.contains("counter-clockwise") == true)
    }

    @Test("a base folded behind the display reads what the display reads, turned half a turn about the hinge")
    func foldedBase() throws {
        for pose in DeviceOrientation.allCases where pose != .unknown {
            let r = try #require(pose.reading)
            #expect(pose.foldedBase.reading == Vector3(r.x, -r.y, -r.z), "\(pose)")
            #expect(pose.foldedBase.foldedBase == pose)
        }
    }

    // MARK: the hwdb entry

    @Test("the hwdb entry matches as systemd's own entries do, and matches this machine's lookup key")
    func hwdbEntry() throws {
        let dmi =
            "dmi:bvnSeaBIOS:bvr1.16.2-debian-1.16.2-1:bd04/01/2014:br0.0:svnQEMU:pnStandardPC(Q35+ICH9,2009):pvrpc-q35-7.2:cvnQEMU:ct1:cvrpc-q35-7.2:sku:"
        let matrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        let entry = HwdbEntry(modalias: "platform:HID-SENSOR-200073", dmi: dmi, label: nil, matrix: matrix)
        // udev looks the product up with its parentheses replaced (measured on the real
        // kernel: RealKernelTests.calibrateApplies).
        #expect(entry.match == "sensor:modalias:platform:HID-SENSOR-200073*:dmi:*:svnQEMU:pnStandardPC_Q35+ICH9,2009_:*")
        #expect(entry.text == "\(entry.match)\n ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n")
        // The key 60-sensor.rules looks up, matched as hwdb matches (fnmatch).
        let key = HwdbEntry.key(modalias: "platform:HID-SENSOR-200073", dmi: dmi, label: nil)
        #expect(key.hasSuffix(":svnQEMU:pnStandardPC_Q35+ICH9,2009_:pvrpc-q35-7.2:cvnQEMU:ct1:cvrpc-q35-7.2:sku:"))
        #expect(fnmatch(entry.match, key, 0) == 0)

        let acpi = HwdbEntry(
            modalias: "acpi:BOSC0200:BOSC0200:", dmi: "dmi:bvnX:bvr1.0:bd01/02/2020:svnAcer:pnOne 10*:pvr1:", label: "accel-display",
            matrix: matrix)
        #expect(acpi.match == "sensor:accel-display:modalias:acpi:BOSC0200*:dmi:*:svnAcer:pnOne 10_:*")
        let acpiKey = HwdbEntry.key(
            modalias: "acpi:BOSC0200:BOSC0200:", dmi: "dmi:bvnX:bvr1.0:bd01/02/2020:svnAcer:pnOne 10*:pvr1:", label: "accel-display")
        #expect(acpiKey == "sensor:accel-display:modalias:acpi:BOSC0200:BOSC0200::dmi:bvnX:bvr1.0:bd01/02/2020:svnAcer:pnOne 10_:pvr1:")
        #expect(fnmatch(acpi.match, acpiKey, 0) == 0)
    }

    @Test("a placeholder product name adds the BIOS version and date; no DMI gives the sensor alone")
    func hwdbPlaceholderAndNoDMI() throws {
        let dmi =
            "dmi:bvnAmericanMegatrendsInc.:bvrY13D_KB133.103:bd06/01/2018:svnDefaultstring:pnDefaultstring:pvrDefaultstring:rvnDefaultstring:rnDefaultstring:"
        let entry = HwdbEntry(modalias: "acpi:KIOX000A:KIOX000A:", dmi: dmi, label: nil, matrix: .identity)
        #expect(entry.match == "sensor:modalias:acpi:KIOX000A*:dmi:*:bvrY13D_KB133.103:bd06/01/2018:svnDefaultstring:pnDefaultstring:*")
        #expect(fnmatch(entry.match, HwdbEntry.key(modalias: "acpi:KIOX000A:KIOX000A:", dmi: dmi, label: nil), 0) == 0)
        let board = HwdbEntry(modalias: "of:NaccelerometerT(null)Cst,lis3dh-accel", dmi: nil, label: nil, matrix: .identity)
        // As systemd's own entries write a device-tree sensor (60-sensor.hwdb: T_null_C).
        #expect(board.match == "sensor:modalias:of:NaccelerometerT_null_Cst,lis3dh-accel*")
    }
}

extension CalibrationTests {
    @Test("poses that no rotation reconciles are refused, not fitted with a pose far off")
    func irreconcilable() {
        // Upright and flat agree with the identity; "turned" reads 27° away from where any
        // rotation that fits the first two puts it.
        let poses = [
            HeldPose(.portrait, reading: Vector3(0, -9.8, 0)),
            HeldPose(.faceUp, reading: Vector3(0, 0, 9.8)),
            HeldPose(.landscapeRight, reading: Vector3(9.8 * cos(0.47), 0, 9.8 * sin(0.47))),
        ]
        #expect {
            try MountMatrixFit.fit(poses)
        } throws: { error in
            (error as? MountMatrixFit.Problem)?.description.contains("landscape-right stays 27° off") == true
        }
    }
}
