import Foundation
import OrientdCore
import OrientdTestSupport
import Testing

/// `orientd calibrate` from recordings, as scripts use it. The live, interactive path and
/// `--apply` run on the real kernel (RealKernelTests, calibrateApplies).
@Suite("orientd calibrate")
struct CalibrateCommandTests {
    @Test(
        "a labelled recording of a sensor mounted with M gives back M, a turn or a mirror",
        arguments: ["0, 1, 0; 1, 0, 0; 0, 0, -1", "0, -1, 0; -1, 0, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, 1", "-1, 0, 0; 0, 0, 1; 0, 1, 0"])
    func givesTheMountingBack(matrix text: String) throws {
        let matrix = try MountMatrix(parsing: text)
        let scratch = try Scratch()
        // The recording's own poses (portrait, landscape-left, face-up), as a sensor mounted
        // with M reads them: raw = Mᵀ · corrected.
        let path = try scratch.write("poses.csv", Scratch.rotationRecording(raw: { matrix.transposed.apply($0) }))
        let result = try OrientdProcess.run(["calibrate", path, "--hold", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(json["matrix"] as? String == text)
        #expect(json["exact"] as? Bool == true)
        #expect(json["poses"] as? [String] == ["portrait", "landscape-left", "face-up"])
        #expect(json["conf"] as? String == "mount-matrix = \(text)")
        #expect(json["mirror"] is NSNull)
    }

    @Test("--base: a 2-in-1's base sensor, folded behind the screen through the same poses, gets its own matrix as base-mount-matrix")
    func baseSensor() throws {
        let text = "0, 1, 0; 1, 0, 0; 0, 0, -1"
        let matrix = try MountMatrix(parsing: text)
        let scratch = try Scratch()
        // Folded to 360°, the base's frame is the display's turned half a turn about the
        // hinge (x): it reads (x, -y, -z) of what the display reads.
        let path = try scratch.write(
            "base.csv", Scratch.rotationRecording(raw: { matrix.transposed.apply(Vector3($0.x, -$0.y, -$0.z)) }))
        let result = try OrientdProcess.run(["calibrate", path, "--base", "--hold", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(json["matrix"] as? String == text)
        #expect(json["sensor"] as? String == "base")
        #expect(json["poses"] as? [String] == ["portrait-upside-down", "landscape-left", "face-down"], "the base's own poses")
        #expect(json["conf"] as? String == "base-mount-matrix = \(text)")
        #expect((json["hwdbFile"] as? String)?.hasSuffix("61-orientd-base.hwdb") == true)
        // Without --base the same readings are a display mounted half a turn further.
        let display = try OrientdProcess.run(["calibrate", path, "--hold", "1", "--json"])
        #expect(display.stdout.contains(#""matrix":"0, 1, 0; -1, 0, 0; 0, 0, 1""#), "\(display.stdout)")
    }

    @Test("upright and flat alone: both mirror images are printed, and the exit status says it is not decided")
    func twoPosesUndecided() throws {
        let scratch = try Scratch()
        let g = standardGravity
        func still(_ v: Vector3) -> String {
            "# orientd-recording 1\ntime,x,y,z\n" + (0..<150).map { "\(Double($0) / 50),\(v.x),\(v.y),\(v.z)\n" }.joined()
        }
        let upright = try scratch.write("up.csv", still(Vector3(-g, 0, 0)))
        let flat = try scratch.write("flat.csv", still(Vector3(0, 0, -g)))
        let result = try OrientdProcess.run(["calibrate", "--upright", upright, "--flat", flat])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("mount matrix    0, 1, 0; 1, 0, 0; 0, 0, -1"), "\(result.stdout)")
        #expect(result.stdout.contains("its mirror image fits as well: 0, -1, 0; 1, 0, 0; 0, 0, -1"), "\(result.stdout)")
        #expect(!result.stdout.contains("ACCEL_MOUNT_MATRIX"), "no entry is offered while undecided")
        #expect(result.stderr.contains("cannot tell the mounting from its mirror image"), "\(result.stderr)")
    }

    @Test("without a terminal and without recordings it says how to give the poses; a recording without them says so")
    func refusals() throws {
        let noTerminal = try OrientdProcess.run(["calibrate"])
        #expect(noTerminal.status == 64)
        #expect(noTerminal.stderr.contains("run it in a terminal, or give the poses as recordings"), "\(noTerminal.stderr)")

        let scratch = try Scratch()
        let unlabelled = try scratch.write("plain.csv", "# orientd-recording 1\ntime,x,y,z\n0,0,-9.8,0\n")
        let plain = try OrientdProcess.run(["calibrate", unlabelled])
        #expect(plain.status == 65)
        #expect(plain.stderr.contains("no 'expect' column naming poses"), "\(plain.stderr)")

        let moving = try scratch.write(
            "moving.csv",
            "# orientd-recording 1\ntime,x,y,z\n"
                + (0..<200).map { "\(Double($0) / 50),\(sin(Double($0)) * 5),-9,0\n" }.joined())
        let never = try OrientdProcess.run(["calibrate", "--upright", moving, "--flat", moving])
        #expect(never.status == 65)
        #expect(never.stderr.contains("never still for 2 s"), "\(never.stderr)")

        let missing = try OrientdProcess.run(["calibrate", "--upright", "/nonexistent.csv", "--flat", unlabelled])
        #expect(missing.status == 66, "\(missing.stderr)")
    }
}
