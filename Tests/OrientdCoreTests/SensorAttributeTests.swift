import Testing

@testable import OrientdCore

@Suite("Sensor attributes: scale, offset, mount matrix, location, choice")
struct SensorAttributeTests {
    func attributes(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test("per-axis scales win over the shared one; offsets are added before scaling")
    func scaleAndOffset() {
        let (c, issues) = AccelerometerCalibration.resolve(
            device: "iio:device0",
            attribute: attributes([
                "in_accel_x_scale": "0.001\n", "in_accel_y_scale": "0.002\n", "in_accel_z_scale": "0.003\0",
                "in_accel_scale": "0.5\n", "in_accel_offset": "-10\n",
            ]))
        #expect(issues.isEmpty)
        #expect(c.scale == Vector3(0.001, 0.002, 0.003))
        #expect(c.scaleSource == "in_accel_{x,y,z}_scale")
        #expect(c.offsetSource == "in_accel_offset")
        #expect(c.apply(x: 1010, y: 10, z: 20) == Vector3(1.0, 0, 0.03))
    }

    @Test("a partial per-axis set falls back to in_accel_scale, then scale")
    func fallbacks() {
        let shared = AccelerometerCalibration.resolve(
            device: "d", attribute: attributes(["in_accel_x_scale": "0.1", "in_accel_scale": "0.009582\n"]))
        #expect(shared.calibration.scale == Vector3(0.009582, 0.009582, 0.009582))
        #expect(shared.calibration.scaleSource == "in_accel_scale")
        let plain = AccelerometerCalibration.resolve(device: "d", attribute: attributes(["scale": "2"]))
        #expect(plain.calibration.scaleSource == "scale")
        let perAxisOffsets = AccelerometerCalibration.resolve(
            device: "d", attribute: attributes(["scale": "1", "in_accel_z_offset": "5", "in_accel_offset": "9"]))
        #expect(perAxisOffsets.calibration.offset == Vector3(0, 0, 5))
    }

    @Test(
        "odd scales are reported by device and attribute and skipped",
        arguments: [
            ("abc\n", "iio:device3: in_accel_scale: 'abc' is not a number; ignored"),
            ("0\n", "iio:device3: in_accel_scale: 0.0 is not a positive scale; ignored"),
            ("-0.01", "iio:device3: in_accel_scale: -0.01 is not a positive scale; ignored"),
            ("nan", "iio:device3: in_accel_scale: 'nan' is not a number; ignored"),
            ("", "iio:device3: in_accel_scale: '' is not a number; ignored"),
        ])
    func oddScale(text: String, message: String) {
        let (c, issues) = AccelerometerCalibration.resolve(device: "iio:device3", attribute: attributes(["in_accel_scale": text]))
        #expect(issues.map(\.description).first == message)
        #expect(issues.last?.description.contains("no usable scale") == true)
        #expect(c.scale == Vector3(1, 1, 1))
        #expect(c.scaleSource == "none (1)")
    }

    @Test("mount matrix: udev first, then the sysfs attributes in iio-sensor-proxy's order, then identity")
    func mountMatrixSources() throws {
        let m1 = "0, 1, 0; 1, 0, 0; 0, 0, 1"
        let m2 = "-1, 0, 0; 0, -1, 0; 0, 0, 1\n"
        var r = MountMatrix.resolve(device: "d", udevProperty: m1, attribute: attributes(["mount_matrix": m2]))
        #expect(r.source == .udev)
        #expect(r.matrix == (try MountMatrix(parsing: m1)))
        r = MountMatrix.resolve(
            device: "d", udevProperty: nil, attribute: attributes(["in_mount_matrix": m1, "in_accel_mount_matrix": m2]))
        #expect(r.source == .accelMountMatrix)
        r = MountMatrix.resolve(device: "d", udevProperty: nil, attribute: attributes([:]))
        #expect(r.source == .identity)
        #expect(r.matrix == .identity)
        let override = try MountMatrix(parsing: m2)
        r = MountMatrix.resolve(device: "d", override: override, udevProperty: m1, attribute: attributes([:]))
        #expect(r.source == .commandLine)
        #expect(r.matrix == override)
    }

    @Test("a mount matrix that does not parse or has a zero row is reported and the next source used")
    func brokenMatrices() {
        let r = MountMatrix.resolve(
            device: "iio:device0", udevProperty: "1, 0, 0; 0, 1, 0",
            attribute: attributes(["mount_matrix": "0, 0, 0; 0, 1, 0; 0, 0, 1\n", "in_accel_mount_matrix": "1, 0, 0; 0, -1, 0; 1, 0, 0"]))
        #expect(r.source == .accelMountMatrix)
        #expect(
            r.issues.map(\.description) == [
                "iio:device0: ACCEL_MOUNT_MATRIX: mount matrix '1, 0, 0; 0, 1, 0' has 2 row(s); expected 3 rows separated by ';'; ignored",
                "iio:device0: mount_matrix: row 1 is all zeros, so axis x would always read 0; ignored",
                "iio:device0: in_accel_mount_matrix: the matrix is singular (one axis copies another); tilt and face-up/face-down will be unreliable; using it as given",
            ])
    }

    @Test("location from udev, then label, then sysfs location")
    func locations() {
        #expect(
            AccelerometerCandidate.location(udevProperty: "base\n", label: "accel-display", sysfsLocation: nil) == (
                .base, "udev ACCEL_LOCATION"
            ))
        #expect(AccelerometerCandidate.location(udevProperty: nil, label: "accel-display\n", sysfsLocation: "base") == (.display, "label"))
        #expect(AccelerometerCandidate.location(udevProperty: nil, label: nil, sysfsLocation: "lid\n") == (.display, "location"))
        #expect(AccelerometerCandidate.location(udevProperty: "weird", label: nil, sysfsLocation: nil).0 == .unknown)
    }

    @Test("the display sensor is chosen, never a base one by itself; --device chooses explicitly")
    func choice() throws {
        let base = AccelerometerCandidate(id: "iio:device0", name: "bmc150", label: "accel-base", location: .base, locationSource: "label")
        let display = AccelerometerCandidate(
            id: "iio:device10", name: "bmc150", label: "accel-display", location: .display, locationSource: "label")
        let unknown = AccelerometerCandidate(id: "iio:device2", name: "mxc4005", label: nil, location: .unknown, locationSource: "")
        #expect(try SensorChoice.choose(from: [base, display, unknown], requested: nil).get() == display)
        #expect(try SensorChoice.choose(from: [base, unknown], requested: nil).get() == unknown)
        #expect(try SensorChoice.choose(from: [display, unknown], requested: "iio:device2").get() == unknown)
        #expect(try SensorChoice.choose(from: [display, base], requested: "accel-base").get() == base)
        guard case .failure(let onlyBase) = SensorChoice.choose(from: [base], requested: nil) else {
            Issue.record("a base sensor alone must not be chosen")
            return
        }
        #expect(onlyBase.description.contains("only a base accelerometer was found (iio:device0 bmc150 accel-base base)"))
        #expect(onlyBase.description.contains("--device iio:device0"))
        guard case .failure(let none) = SensorChoice.choose(from: [display], requested: "iio:device7") else {
            Issue.record("an unknown --device must fail")
            return
        }
        #expect(none.description == "no accelerometer matches --device iio:device7; found: iio:device10 bmc150 accel-display display")
        #expect(SensorChoice.naturalOrder("iio:device2", "iio:device10"))
        // Among things that carry a candidate, the thing itself comes back.
        let found = [(candidate: base, path: "/b"), (candidate: unknown, path: "/u"), (candidate: display, path: "/d")]
        #expect(try SensorChoice.choose(from: found, candidate: \.candidate, requested: nil).get().path == "/d")
        #expect(try SensorChoice.choose(from: found, candidate: \.candidate, requested: "accel-base").get().path == "/b")
    }
}

@Suite("Sampling frequency")
struct SamplingFrequencyTests {
    @Test("the lowest offered rate at or above the one wanted, else the highest")
    func choice() {
        let offered = "7.810000 15.630000 31.250000 62.500000 125 250 500 1000\n"
        #expect(SamplingFrequency.choose(available: offered, wanted: 50) == 62.5)
        #expect(SamplingFrequency.choose(available: offered, wanted: 62.5) == 62.5)
        #expect(SamplingFrequency.choose(available: offered, wanted: 5) == 7.81)
        #expect(SamplingFrequency.choose(available: "10 20\0", wanted: 100) == 20)
        #expect(SamplingFrequency.choose(available: "garbage\n", wanted: 50) == nil)
        #expect(SamplingFrequency.choose(available: nil, wanted: 50) == nil)
        // A HID sensor hub has a frequency and no list: it takes the rate wanted.
        #expect(SamplingFrequency.choose(available: nil, wanted: 50, settable: true) == 50)
        #expect(SamplingFrequency.choose(available: "10 20", wanted: 50, settable: true) == 20)
    }
}

@Suite("Reads that keep failing")
struct ReadFailuresTests {
    @Test("reported on the first failure, after a second of failing, every hundredth, and on recovery")
    func reports() {
        var failures = ReadFailures(interval: 0.02)
        var reports: [ReadFailures.Report] = []
        var t = 0.0
        for _ in 0..<250 {
            if let r = failures.failed(at: t) { reports.append(r) }
            t += 0.02
        }
        #expect(reports == [.failed(count: 1), .persisting(count: 51), .failed(count: 100), .failed(count: 200)])
        #expect(failures.succeeded() == .recovered(afterFailures: 250))
        #expect(failures.succeeded() == nil, "once")
        #expect(failures.failed(at: 10) == .failed(count: 1), "a new run of failures starts again")
        #expect(failures.succeeded() == nil, "a short hiccup is not worth a recovery note")
    }

    @Test("the back-off doubles from the interval up to a second")
    func backOff() {
        var failures = ReadFailures(interval: 0.01)
        #expect(failures.delay == 0.01)
        var delays: [Double] = []
        for i in 0..<10 {
            _ = failures.failed(at: Double(i))
            delays.append(failures.delay)
        }
        #expect(delays == [0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1, 1, 1, 1])
        _ = failures.succeeded()
        #expect(failures.delay == 0.01)
        var slow = ReadFailures(interval: 2)
        _ = slow.failed(at: 0)
        #expect(slow.delay == 2, "never faster than the polling interval")
    }

    @Test("the messages name the error and the device")
    func messages() {
        #expect(
            ReadFailures.message(.failed(count: 1), error: "EIO reading accel_x", device: "iio:device0")
                == "EIO reading accel_x (1 failed reads so far; retrying)")
        #expect(
            ReadFailures.message(.recovered(afterFailures: 7), error: "", device: "iio:device0")
                == "iio:device0: reading again after 7 failed reads")
    }
}

@Suite("Slow polled reads")
struct SlowPolledReadsTests {
    let lis3dh = "1 10 25 50 100 200 400 1600"

    @Test("three slow reads in a row raise the rate to the next offered, step by step, up to 8 times the poll rate")
    func raises() {
        var reads = SlowPolledReads(interval: 0.02, available: lis3dh, rate: 50)
        #expect(reads.observe(readTook: 0.12) == nil)
        #expect(reads.observe(readTook: 0.12) == nil)
        #expect(reads.observe(readTook: 0.12) == 100)
        reads.set(100)
        var raised: [Double] = []
        for _ in 0..<30 {
            if let next = reads.observe(readTook: 0.06) {
                raised.append(next)
                reads.set(next)
            }
        }
        // 1600 Hz is above 8 × 50 Hz: a slow bus, not a conversion wait, is not chased.
        #expect(raised == [200, 400])
        #expect(reads.rate == 400)
    }

    @Test("a fast read breaks the run; a read within a quarter of the interval is not slow")
    func patience() {
        var reads = SlowPolledReads(interval: 0.02, available: lis3dh, rate: 50)
        for _ in 0..<10 {
            #expect(reads.observe(readTook: 0.03) == nil)
            #expect(reads.observe(readTook: 0.03) == nil)
            #expect(reads.observe(readTook: 0.004) == nil)
        }
        #expect(reads.observe(readTook: 0.005) == nil)
    }

    @Test("no list (a HID sensor hub), or a driver that refused, is never raised")
    func nothingToRaise() {
        var hub = SlowPolledReads(interval: 0.02, available: nil, rate: 50)
        for _ in 0..<10 { #expect(hub.observe(readTook: 0.1) == nil) }
        var refusing = SlowPolledReads(interval: 0.02, available: lis3dh, rate: 50)
        for _ in 0..<2 { _ = refusing.observe(readTook: 0.1) }
        #expect(refusing.observe(readTook: 0.1) == 100)
        refusing.set(nil)
        for _ in 0..<10 { #expect(refusing.observe(readTook: 0.1) == nil) }
        #expect(refusing.rate == 50)
    }
}
