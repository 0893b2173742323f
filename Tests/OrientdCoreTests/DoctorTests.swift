import Foundation
import OrientdCore
import Testing

/// `orientd doctor`'s judgements, on plain values: readings, the pose under the matrix in
/// force, other rotators, and a daemon's state. (On a real kernel with planted faults:
/// RealKernelTests, doctorFindsFaults.)
@Suite("Doctor")
struct DoctorTests {
    static func samples(seconds: Double = 2, noise: Double = 0.02, _ vector: Vector3 = Vector3(0, -9.81, 0)) -> [Sample] {
        (0..<Int(seconds * 50)).map { i in
            let wobble = noise * sin(Double(i) * 1.7)
            return Sample(time: Double(i) / 50, acceleration: Vector3(vector.x + wobble, vector.y - wobble, vector.z + wobble / 2))
        }
    }

    @Test("readings that move with noise and measure 9.8 m/s² are both ok")
    func healthyReadings() {
        let findings = ReadingsCheck.judge(Self.samples(), scale: "0.0098 from in_accel_scale")
        #expect(findings.map(\.check) == ["readings", "gravity"])
        #expect(findings.allSatisfy { $0.verdict == .ok }, "\(findings)")
    }

    @Test("the same value for 2 s is a stale driver; no reading at all is said so")
    func staleAndSilent() throws {
        let stale = ReadingsCheck.judge(Self.samples(noise: 0), scale: "1")
        #expect(stale[0].verdict == .problem && stale[0].detail.contains("all 100 readings in 2 s were the same"), "\(stale[0])")
        #expect(stale[1].verdict == .ok, "gravity itself is fine")
        // Under the time a stale value shows, identical readings prove nothing.
        #expect(ReadingsCheck.judge(Self.samples(seconds: 1, noise: 0), scale: "1")[0].verdict == .ok)
        let silent = ReadingsCheck.judge([], scale: "1")
        #expect(silent.count == 1 && silent[0].verdict == .problem && silent[0].detail.contains("no reading"))
    }

    @Test("stuck at all zero or at full scale: the one problem, named; gravity not judged on top")
    func stuckImplausible() {
        let zero = ReadingsCheck.judge(Self.samples(noise: 0, Vector3(0, 0, 0)), scale: "1")
        let said = "was (0, 0, 0): the sensor sends nothing"
        #expect(zero.count == 1 && zero[0].verdict == .problem && zero[0].detail.contains(said), "\(zero)")
        let saturated = ReadingsCheck.judge(Self.samples(noise: 0, Vector3(327.67, 327.67, -327.67)), scale: "0.01")
        #expect(saturated.count == 1 && saturated[0].detail.contains("57.9 g: its counts are saturated"), "\(saturated)")
        // Moving with noise at 10 g is a scale, not saturation: the gravity check says so.
        #expect(ReadingsCheck.judge(Self.samples(noise: 0.001, Vector3(0, -98.1, 0)), scale: "1").count == 2)
    }

    @Test(
        "gravity read in g, or as nothing, is a wrong scale with its fix",
        arguments: [(1.0, "in g"), (0.01, "reads nothing"), (98.1, "10")])
    func wrongScale(magnitude: Double, said: String) throws {
        let findings = ReadingsCheck.judge(Self.samples(noise: 0.001, Vector3(0, -magnitude, 0)), scale: "0.001 from in_accel_scale")
        let gravity = try #require(findings.last)
        #expect(gravity.check == "gravity" && gravity.verdict == .problem)
        #expect(gravity.detail.contains(said), "\(gravity.detail)")
        #expect(gravity.detail.contains("0.001 from in_accel_scale"))
        #expect(gravity.fix?.contains("magnitude-tolerance") == true)
    }

    @Test("the pose under the matrix in force: face-down, or upside-down on a laptop's lid, calls for calibrate")
    func plausiblePose() throws {
        let hwdb = try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, -1")
        // Held upright, this sensor reads (-g, 0, 0): under its matrix, portrait.
        let upright = PoseCheck.judge(matrix: hwdb, source: .udev, reading: Vector3(-9.8, 0, 0), convertible: false)
        #expect(upright.verdict == .ok && upright.detail.contains("from the hwdb") && upright.detail.contains("reads portrait"))
        // Lying face up it reads (0, 0, -g): without the matrix that is face-down.
        let faceDown = PoseCheck.judge(matrix: .identity, source: .identity, reading: Vector3(0, 0, -9.8), convertible: false)
        #expect(faceDown.verdict == .problem && faceDown.fix?.contains("orientd calibrate") == true, "\(faceDown)")
        let lid = PoseCheck.judge(matrix: .identity, source: .mountMatrix, reading: Vector3(0, 9.8, 0), convertible: true)
        #expect(lid.verdict == .problem && lid.detail.contains("(from the driver: sysfs mount_matrix)"), "\(lid)")
        let tablet = PoseCheck.judge(matrix: .identity, source: .commandLine, reading: Vector3(0, 9.8, 0), convertible: false)
        #expect(tablet.verdict == .ok && tablet.detail.contains("orientd.conf"), "a tablet may be held upside down: \(tablet)")
        let none = PoseCheck.judge(matrix: .identity, source: .identity, reading: Vector3(0, -9.8, 0), convertible: false)
        #expect(none.verdict == .note && none.fix != nil)
    }

    @Test("other rotators: iio-sensor-proxy with GNOME, Phosh or KDE, rot8, a second orientd; never the service or the doctor itself")
    func rotators() {
        func process(_ pid: Int32, _ arguments: String...) -> RotatorCheck.Process { RotatorCheck.Process(pid: pid, arguments: arguments) }
        let quiet = [process(1, "/sbin/init"), process(10, "/usr/bin/orientd", "run", "--wait"), process(11, "orientd", "doctor")]
        let none = RotatorCheck.judge(quiet, daemon: 10, doctor: 11)
        #expect(none.verdict == .ok, "\(none)")
        let client = RotatorCheck.judge(quiet + [process(12, "orientd", "ctl", "monitor")], daemon: 10, doctor: 11)
        #expect(client.verdict == .ok, "a client is not a rotator")

        let gnome = RotatorCheck.judge(
            quiet + [process(20, "/usr/libexec/iio-sensor-proxy"), process(21, "/usr/bin/gnome-shell")], daemon: 10, doctor: 11)
        #expect(gnome.verdict == .problem && gnome.detail.contains("iio-sensor-proxy (pid 20)") && gnome.detail.contains("GNOME"))
        #expect(
            gnome.fix?.contains("orientation-lock true") == true && gnome.fix?.contains("systemctl mask --now iio-sensor-proxy") == true)
        let kde = RotatorCheck.judge(
            quiet + [process(20, "/usr/libexec/iio-sensor-proxy"), process(22, "kwin_wayland")], daemon: 10, doctor: 11)
        #expect(
            kde.detail.contains("KDE") && kde.fix?.contains("Orientation: Manual") == true
                && kde.fix?.contains("in Plasma Mobile, Auto-rotate off") == true, "\(kde)")
        let phosh = RotatorCheck.judge(
            quiet + [process(20, "/usr/libexec/iio-sensor-proxy"), process(23, "/usr/libexec/phosh", "--unlocked")], daemon: 10, doctor: 11)
        #expect(
            phosh.detail.contains("Phosh turns the screen") && !phosh.detail.contains("GNOME")
                && phosh.fix?.contains("orientation-lock true") == true, "\(phosh)")
        let rot8 = RotatorCheck.judge(quiet + [process(30, "rot8", "--sleep", "500")], daemon: 10, doctor: 11)
        #expect(rot8.verdict == .problem && rot8.detail.contains("rot8 (pid 30)"))
        let second = RotatorCheck.judge(quiet + [process(40, "./orientd", "run", "--exec", "x")], daemon: 10, doctor: 11)
        #expect(second.verdict == .problem && second.detail.contains("another orientd (pid 40"), "\(second)")
    }

    @Test("the daemon's state: a lock, laptop mode, requests and hooks, each one line")
    func daemonState() throws {
        let fine = DaemonCheck.judge(DaemonStatus(type: "portrait-primary", device: "portrait", hookCommands: ["orientd-rotate-sway"])) {
            _ in true
        }
        #expect(fine.map(\.verdict) == [.ok, .ok], "\(fine)")

        let stuck = DaemonStatus(
            type: "landscape-primary", device: "portrait", lock: ["landscape-primary"],
            requests: [DaemonStatus.Request(by: "client 3", requested: ["landscape"])], mode: "laptop", modeSource: "switch",
            hookCommands: ["rotate.sh", "orientd-rotate-sway"],
            failedHooks: [DaemonStatus.FailedHook(command: "orientd-rotate-sway", error: "exit status 1")])
        let findings = DaemonCheck.judge(stuck) { $0 != "rotate.sh" }
        let byCheck = Dictionary(uniqueKeysWithValues: findings.map { ($0.check, $0) })
        #expect(
            byCheck["lock"]?.verdict == .problem
                && byCheck["lock"]?.fix == "orientd ctl unlock (or the desktop's rotation-lock button, if it drives orientd)")
        #expect(byCheck["requests"]?.verdict == .note && byCheck["requests"]?.detail.contains("client 3 asks for landscape") == true)
        #expect(byCheck["mode"]?.verdict == .problem && byCheck["mode"]?.detail.contains("laptop mode (from the switch)") == true)
        let hooks = try #require(byCheck["hooks"])
        #expect(hooks.verdict == .problem)
        #expect(
            hooks.detail.contains("'rotate.sh' cannot be run")
                && hooks.detail.contains("'orientd-rotate-sway' failed the last time: exit status 1"))

        var always = stuck
        always.rotateIn = "always"
        #expect(DaemonCheck.judge(always) { _ in true }.first { $0.check == "mode" }?.verdict == .ok)
        let noHooks = DaemonCheck.judge(DaemonStatus(type: "portrait-primary", device: "portrait")) { _ in true }
        #expect(noHooks.last?.verdict == .note)
    }

    @Test("a silent sensor, as the daemon's status says it, is a problem named with what orientd does about it")
    func sensorTrouble() {
        let polled = DaemonStatus(
            type: "portrait-primary", device: "portrait", hookCommands: ["orientd-rotate-sway"],
            sensorTrouble: DaemonStatus.Trouble(state: "polled", device: "iio:device0", silent: 12.4))
        let findings = DaemonCheck.judge(polled) { _ in true }
        #expect(findings.map(\.check) == ["sensor", "lock", "hooks"])
        #expect(findings.filter { $0.verdict == .problem }.map(\.check) == ["sensor"], "the one problem")
        #expect(findings[0].detail.hasPrefix("the buffer of iio:device0 has sent nothing for 12 s, though the sensor answers reads"))
        #expect(findings[0].detail.contains("reads it polled meanwhile"))
        var stalled = polled
        stalled.sensorTrouble = DaemonStatus.Trouble(state: "stalled", device: "iio:device0", silent: 2.5)
        let first = DaemonCheck.judge(stalled) { _ in true }[0]
        #expect(first.verdict == .problem && first.detail.hasPrefix("iio:device0 has sent nothing for 3 s (stalled)"), "\(first)")
        var hung = polled
        hung.sensorTrouble = DaemonStatus.Trouble(state: "hung", device: "iio:device0", silent: 5.2)
        let answersNothing = DaemonCheck.judge(hung) { _ in true }
        #expect(answersNothing.filter { $0.verdict == .problem }.map(\.check) == ["sensor"], "the one problem")
        #expect(answersNothing[0].detail.hasPrefix("iio:device0 answers nothing (hung): its buffer has sent nothing for 5 s"))
        #expect(answersNothing[0].detail.contains("reads on the moment it sends"), "\(answersNothing[0])")
        #expect(DaemonCheck.readingsNotJudged(hung.sensorTrouble, device: "iio:device0")?.detail.contains("hung") == true)
        #expect(DaemonCheck.readingsNotJudged(hung.sensorTrouble, device: "iio:device1") == nil, "another sensor is read")
        #expect(DaemonCheck.readingsNotJudged(polled.sensorTrouble, device: "iio:device0") == nil, "polled reads answer")
    }

    @Test("a status reply as the daemon writes it decodes, dashes and all")
    func decodesStatus() throws {
        let line = #"""
            {"reply":"status","ok":true,"type":"landscape-primary","angle":90,"device":"landscape-left","locked":true,"allowed":["landscape-primary"],"supported":["any"],"mode":"laptop","hinge":null,"lock":["landscape-primary"],"requests":[{"by":"client 2","requested":["portrait-primary"]}],"mode-source":"command","rotate-in":"tablet","overridden":[],"decided":"lock","natural":"portrait","source":"iio:device0","reading":true,"sensor-trouble":{"state":"stalled","device":"iio:device0","silent":4.2},"hooks":1,"hook-commands":["false"],"hooks-failed":[{"command":"false","error":"exit status 1"}]}
            """#
        let status = try JSONDecoder().decode(DaemonStatus.self, from: Data(line.utf8))
        #expect(status.lock == ["landscape-primary"] && status.modeSource == "command" && status.rotateIn == "tablet")
        #expect(status.failedHooks == [DaemonStatus.FailedHook(command: "false", error: "exit status 1")])
        #expect(status.sensorTrouble == DaemonStatus.Trouble(state: "stalled", device: "iio:device0", silent: 4.2))
    }

    @Test("a finding as text: the verdict, the check, the detail, and the fix under a problem")
    func findingText() {
        let finding = DoctorFinding("lock", .problem, "locked to landscape", fix: "orientd ctl unlock")
        #expect(finding.text == "PROBLEM lock          locked to landscape\n        fix: orientd ctl unlock")
        #expect(
            String(decoding: finding.jsonLine, as: UTF8.self)
                == #"{"check":"lock","verdict":"problem","detail":"locked to landscape","fix":"orientd ctl unlock"}"# + "\n")
    }
}
