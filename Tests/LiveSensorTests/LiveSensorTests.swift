import Foundation
import OrientdCore
import OrientdLinux
import Testing

/// Runs a sensor reader against the testbed, handing each event to `handle` until it
/// returns true or `seconds` pass. Returns every event seen.
func collect(
    _ configuration: SensorReader.Configuration, seconds: Double = 5,
    _ handle: (SensorEvent<AccelerometerInfo>) throws -> Bool = { _ in false }
) async rethrows -> [SensorEvent<AccelerometerInfo>] {
    let reader = try! SensorReader(configuration: configuration)
    var iterator = reader.events().makeAsyncIterator()
    let timeout = Task {
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        reader.stop()
    }
    var events: [SensorEvent<AccelerometerInfo>] = []
    do {
        while let event = await iterator.next() {
            events.append(event)
            if try handle(event) { break }
        }
    } catch {
        await finish(reader, &iterator, timeout)
        throw error
    }
    await finish(reader, &iterator, timeout)
    return events
}

/// Stops the reader and waits until its thread has ended (the stream finishes then), so
/// nothing touches the testbed while it is torn down.
private func finish(
    _ reader: SensorReader, _ iterator: inout AsyncStream<SensorEvent<AccelerometerInfo>>.Iterator, _ timeout: Task<Void, Never>
) async {
    reader.stop()
    while await iterator.next() != nil {}
    timeout.cancel()
}

extension SensorReader {
    /// The reader's events as a stream, for the tests. Unbounded: a test must see every
    /// event, however slowly it reads.
    func events() -> AsyncStream<SensorEvent<AccelerometerInfo>> {
        let (stream, continuation) = AsyncStream<SensorEvent<AccelerometerInfo>>.makeStream(bufferingPolicy: .unbounded)
        do {
            try start({ continuation.yield($0) }, finished: { continuation.finish() })
        } catch {
            Issue.record("no thread for the reader: \(error)")
            continuation.finish()
        }
        return stream
    }
}

/// The reader as the tests of its mechanics want it: every sample handed on, at the full
/// rate (the adaptive rate has its own tests, `adaptiveRate:`).
func configuration(
    device: String? = nil, rate: Double = 50, wait: Bool = false, poll: Bool = false, adaptiveRate: AdaptiveRateParameters = .off
) -> SensorReader.Configuration {
    SensorReader.Configuration(
        uri: nil, device: device, mountMatrixOverride: nil, rate: rate, adaptiveRate: adaptiveRate, forcePolling: poll, wait: wait)
}

extension SensorEvent<AccelerometerInfo> {
    var attachedInfo: AccelerometerInfo? { if case .attached(let i) = self { i } else { nil } }
    var sample: Sample? { if case .sample(let s) = self { s } else { nil } }
    var warningText: String? { if case .warning(let w) = self { w } else { nil } }
    var isLost: Bool { if case .changed(.lost, _, _) = self { true } else { false } }
    var failure: String? { if case .failed(let f) = self { f } else { nil } }
}

@Suite("Live sensors under umockdev", .serialized, .enabled(if: umockdevPreloaded, "needs umockdev-wrapper (make test)"))
struct LiveSensorTests {
    @Test("a polled sensor whose values change: portrait, then landscape-left, with the first event quickly")
    func polledChanges() async throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100)))
        var pipeline = OrientationPipeline()
        var events: [OrientationEvent] = []
        var firstSampleTime: Double?
        let seen = await collect(configuration()) { event in
            switch event {
            case .attached(let info):
                pipeline.replaceSensor(mountMatrix: info.mountMatrix)
            case .sample(let s):
                firstSampleTime = firstSampleTime ?? s.time
                if let e = pipeline.process(s) {
                    events.append(e)
                    if e.device == .portrait {
                        // Turn it: the right edge up reads (−g, 0, 0).
                        bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_x_raw", "-1024")
                        bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_y_raw", "0")
                    }
                    return e.device == .landscapeLeft
                }
            case .failed(let why):
                Issue.record("failed: \(why)")
                return true
            default:
                break
            }
            return false
        }
        let info = try #require(seen.compactMap(\.attachedInfo).first)
        #expect(info.candidate.id == "iio:device0")
        #expect(info.readPath == .polled)
        #expect(info.calibration.scaleSource == "in_accel_scale")
        #expect(info.samplingFrequency == 62.5, "the lowest offered rate at or above 50 Hz is set")
        #expect(events.map(\.device) == [.portrait, .landscapeLeft])
        let sample = try #require(seen.compactMap(\.sample).first)
        #expect(abs(sample.acceleration.y - -1024 * 0.009582) < 1e-9, "scaled to m/s²")
        let first = try #require(events.first)
        #expect(first.time - (firstSampleTime ?? 0) < 0.06, "the first event within 60 ms of the first reading")
    }

    @Test("the mount matrix comes from udev's ACCEL_MOUNT_MATRIX first, then sysfs mount_matrix")
    func mountMatrixSources() async throws {
        let matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
        // Raw (1024, 0, 0) through the matrix reads (0, −1024, 0): portrait.
        for (properties, attributes, source) in [
            (["ACCEL_MOUNT_MATRIX": matrix], ["mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"], MountMatrixSource.udev),
            ([:], ["mount_matrix": matrix], .mountMatrix),
            ([:], ["in_accel_mount_matrix": matrix], .accelMountMatrix),
        ] as [([String: String], [String: String], MountMatrixSource)] {
            let bed = Testbed()
            try bed.add(FakeAccelerometer.polled(raw: (1024, 0, 50), extraAttributes: attributes, properties: properties))
            var pipeline = OrientationPipeline()
            var pose: DeviceOrientation?
            let seen = await collect(configuration()) { event in
                if let info = event.attachedInfo { pipeline.replaceSensor(mountMatrix: info.mountMatrix) }
                if let s = event.sample, let e = pipeline.process(s) { pose = e.device }
                return pose != nil
            }
            let info = try #require(seen.compactMap(\.attachedInfo).first)
            #expect(info.mountMatrixSource == source)
            #expect(pose == .portrait, "\(source)")
            withExtendedLifetime(bed) {}
        }
    }

    @Test("with a base and a display sensor the display one is read; --device picks another")
    func baseAndDisplay() async throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(number: 0, name: "bmc150_accel", extraAttributes: ["label": "accel-base"]))
        try bed.add(FakeAccelerometer.polled(number: 1, name: "bmc150_accel", extraAttributes: ["label": "accel-display"]))
        let seen = await collect(configuration()) { $0.attachedInfo != nil }
        let info = try #require(seen.compactMap(\.attachedInfo).first)
        #expect(info.candidate.id == "iio:device1")
        #expect(info.candidate.location == .display)
        #expect(info.candidate.locationSource == "label")
        let chosen = await collect(configuration(device: "accel-base")) { $0.attachedInfo != nil }
        #expect(chosen.compactMap(\.attachedInfo).first?.candidate.id == "iio:device0")
    }

    @Test("only a base sensor: not read, with a message that says how to read it anyway")
    func onlyBase() async throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(properties: ["ACCEL_LOCATION": "base"]))
        let seen = await collect(configuration()) { $0.failure != nil }
        let failure = try #require(seen.compactMap(\.failure).first)
        #expect(failure.contains("only a base accelerometer was found"))
        #expect(failure.contains("--device iio:device0"))
    }

    @Test("no sensor: a clear failure naming where it looked")
    func noSensor() async throws {
        let bed = Testbed()
        let seen = await collect(configuration()) { $0.failure != nil }
        #expect(seen.compactMap(\.failure).first?.contains("no accelerometer found: looked in udev's iio subsystem") == true)
        withExtendedLifetime(bed) {}
    }

    @Test("removed mid-stream: one lost event; plugged in again: attached and reading again")
    func hotPlug() async throws {
        let bed = Testbed()
        let description = FakeAccelerometer.polled(raw: (0, -1024, 100))
        try bed.add(description)
        var attached = 0
        var lost = 0
        var samplesAfterReturn = 0
        let seen = try await collect(configuration(), seconds: 8) { event in
            switch event {
            case .attached:
                attached += 1
            case .sample:
                if attached == 1, lost == 0 {
                    bed.uevent(FakeAccelerometer.syspath(), "remove")
                    bed.remove(FakeAccelerometer.syspath())
                    lost = -1  // removal requested
                } else if attached == 2 {
                    samplesAfterReturn += 1
                }
            case .changed(.lost, _, _) where lost == -1:
                lost = 1
                // The platform parent stays; only the IIO device comes back.
                try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 100), withParent: false))
                bed.uevent(FakeAccelerometer.syspath(), "add")
            default:
                break
            }
            return samplesAfterReturn >= 5
        }
        #expect(attached == 2, "\(seen.filter { $0.sample == nil }.map { "\($0)" })")
        #expect(seen.compactMap(\.attachedInfo).map(\.candidate.id) == ["iio:device0", "iio:device0"])
        let lostEvents = seen.compactMap { event -> String? in
            if case .changed(.lost(let r), let d, _) = event { "\(d): \(r)" } else { nil }
        }
        #expect(lostEvents == ["iio:device0: removed"])
        #expect(lost == 1)
        #expect(samplesAfterReturn >= 5)
    }

    @Test("broken attributes: each reported by device and attribute, with a safe choice")
    func brokenAttributes() async throws {
        let bed = Testbed()
        try bed.add(
            FakeAccelerometer.polled(
                raw: (0, -1024, 0), extraAttributes: ["mount_matrix": "0, 0, 0; 0, 1, 0; 0, 0, 1"], scale: "abc"))
        var samples = 0
        let seen = await collect(configuration()) { event in
            if event.sample != nil { samples += 1 }
            return samples >= 3
        }
        let warnings = seen.compactMap(\.warningText)
        #expect(warnings.contains("iio:device0: in_accel_scale: 'abc' is not a number; ignored"), "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("iio:device0: in_accel_scale: no usable scale") })
        #expect(warnings.contains("iio:device0: mount_matrix: row 1 is all zeros, so axis x would always read 0; ignored"))
        let info = try #require(seen.compactMap(\.attachedInfo).first)
        #expect(info.mountMatrixSource == .identity)
        // Raw counts taken as m/s²: 1024 "m/s²" is not gravity, so no pose is ever decided.
        var pipeline = OrientationPipeline()
        let decided = seen.compactMap(\.sample).compactMap { pipeline.process($0) }
        #expect(decided.isEmpty)
    }

    @Test("a raw value that is not a number is a warning and the read is retried")
    func brokenRawValue() async throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 0)))
        bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_x_raw", "garbage")
        var fixed = false
        var samples = 0
        let seen = await collect(configuration(rate: 100)) { event in
            if event.warningText != nil, !fixed {
                bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_x_raw", "3")
                fixed = true
            }
            if event.sample != nil { samples += 1 }
            return samples >= 2
        }
        let warning = try #require(seen.compactMap(\.warningText).first)
        #expect(warning.contains("iio:device0: accel_x"), "\(warning)")
        #expect(warning.contains("garbage"))
        #expect(samples >= 2, "reading resumed after the value was fixed")
    }

    /// Sample i of the fixtures' scripts (make-scans.py): x = i+1, y = −1024+i, z = 37−i
    /// counts; timestamps 80 ms apart.
    @Test(
        "a buffered sensor fed through /dev/iio:device0, in two scan layouts",
        arguments: [
            ("buffered-accel", "le:s12/16>>4", true),
            ("buffered-accel-be16", "be:s16/16>>0", false),
        ])
    func buffered(fixtureName: String, layout: String, timestamps: Bool) async throws {
        let bed = Testbed()
        try bed.add(fixture("\(fixtureName).umockdev"))
        try bed.loadScript(device: "/dev/iio:device0", path: fixtures.appendingPathComponent("\(fixtureName).script").path)
        var samples: [Sample] = []
        let seen = await collect(configuration()) { event in
            if let s = event.sample { samples.append(s) }
            return samples.count >= 8
        }
        let info = try #require(seen.compactMap(\.attachedInfo).first, "\(seen)")
        #expect(info.readPath == .buffered)
        #expect(samples.count == 8)
        let scale = 0.009582
        for (i, s) in samples.enumerated() {
            let expected = Vector3(Double(i + 1), Double(-1024 + i), Double(37 - i)) * scale
            #expect((s.acceleration - expected).length < 1e-9, "scan \(i) of \(layout): \(s.acceleration)")
        }
        if timestamps {
            // The device's timestamps, not the arrival times, space the samples.
            for (a, b) in zip(samples, samples.dropFirst()) {
                #expect(abs((b.time - a.time) - 0.08) < 1e-6, "\(a.time) → \(b.time)")
            }
        }
        let pose = samples.reduce(into: OrientationPipeline()) { p, s in _ = p.process(s) }.classifier.orientation
        #expect(pose == .portrait)
    }
}

extension LiveSensorTests {
    @Test("reads that keep failing are reported after a second, and so is the recovery")
    func persistentReadFailures() async throws {
        let bed = Testbed()
        try bed.add(FakeAccelerometer.polled(raw: (0, -1024, 0)))
        var samples = 0
        var broken = false
        var fixed = false
        let seen = await collect(configuration(), seconds: 8) { event in
            if event.sample != nil {
                samples += 1
                if !broken {
                    bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_z_raw", "not-a-number")
                    broken = true
                }
            }
            if let w = event.warningText, w.contains("failed for over a second"), !fixed {
                bed.setAttribute(FakeAccelerometer.syspath(), "in_accel_z_raw", "0")
                fixed = true
            }
            return event.warningText?.contains("reading again") == true
        }
        let warnings = seen.compactMap(\.warningText)
        #expect(warnings.contains { $0.contains("reads have failed for over a second") }, "\(warnings)")
        #expect(warnings.last?.hasPrefix("iio:device0: reading again after") == true, "\(warnings)")
    }
}

extension LiveSensorTests {
    @Test("a buffered sensor that stops sending is reported as stalled, and as resumed when it sends again")
    func stalledSensor() async throws {
        let bed = Testbed()
        try bed.add(fixture("buffered-accel.umockdev"))
        // 9 scans, 2.6 s of silence, 7 more (make-scans.py, edited: see the script's header).
        try bed.loadScript(device: "/dev/iio:device0", path: fixtures.appendingPathComponent("buffered-accel-stall.script").path)
        var samples = 0
        var resumedAt: Int?
        let seen = await collect(configuration(), seconds: 10) { event in
            if event.sample != nil { samples += 1 }
            if case .changed(.resumed, _, _) = event { resumedAt = samples }
            return samples >= 16
        }
        let stalled = seen.compactMap { if case .changed(.stalled(let seconds), let device, _) = $0 { (device, seconds) } else { nil } }
        #expect(stalled.count == 1, "\(seen)")
        #expect(stalled.first?.0 == "iio:device0")
        #expect((2.0..<2.6).contains(stalled.first?.1 ?? 0), "reported after the 2 s threshold, before the scans came back")
        let resumed = seen.compactMap { if case .changed(.resumed(let after), _, _) = $0 { after } else { nil } }
        #expect(resumed.count == 1)
        #expect((2.4..<3.5).contains(resumed.first ?? 0), "the silence lasted about 2.6 s: \(resumed)")
        #expect(resumedAt.map { $0 < 16 } == true, "resumed is said before the later scans are handed on")
        #expect(samples == 16, "no scan lost around the stall")
    }
}

extension LiveSensorTests {
    @Test("a scan cut across two reads (a short read) is put back together, not lost or misaligned")
    func shortReads() async throws {
        let bed = Testbed()
        try bed.add(fixture("buffered-accel.umockdev"))
        try bed.loadScript(device: "/dev/iio:device0", path: fixtures.appendingPathComponent("buffered-accel-split.script").path)
        var samples: [Sample] = []
        _ = await collect(configuration(), seconds: 5) { event in
            if let s = event.sample { samples.append(s) }
            return samples.count >= 8
        }
        #expect(samples.count == 8)
        for (i, s) in samples.enumerated() {
            let expected = Vector3(Double(i + 1), Double(-1024 + i), Double(37 - i)) * 0.009582
            #expect((s.acceleration - expected).length < 1e-9, "scan \(i): \(s.acceleration)")
        }
    }
}
