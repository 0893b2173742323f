import Foundation
import OrientdCore
import Testing

@testable import OrientdSimulation

/// The accelerometer part: noise, calibration errors, quantisation, saturation, mounting
/// and timing.
struct SensorModelTests {
    @Test func noiseHasTheAskedStatistics() throws {
        let recording = try render("sensor: ideal\nnoise: 0.05\nstart face-up\nhold 40s")
        #expect(recording.rows.count == 2000)
        let truth = [0, 0, g]
        for (axis, values) in [recording.rows.map(\.raw.x), recording.rows.map(\.raw.y), recording.rows.map(\.raw.z)].enumerated() {
            let sigma = standardDeviation(values)
            #expect(abs(sigma - 0.05) < 0.005, "axis \(axis): σ \(sigma)")
            #expect(abs(mean(values) - truth[axis]) < 0.005)
            // Gaussian: about 68 % within one σ, 95 % within two.
            let within1 = Double(values.filter { abs($0 - truth[axis]) < 0.05 }.count) / Double(values.count)
            let within2 = Double(values.filter { abs($0 - truth[axis]) < 0.1 }.count) / Double(values.count)
            #expect(abs(within1 - 0.683) < 0.04 && abs(within2 - 0.954) < 0.02)
        }
    }

    @Test func averagingOverTheSamplePeriodKeepsTheNoiseLevel() throws {
        // σ is the output noise: the digital filter does not change it.
        let recording = try render("sensor: ideal\nnoise: 0.04\nrate: 10\nstart portrait\nhold 200s tremor amp=0")
        #expect(abs(standardDeviation(recording.rows.map(\.raw.x)) - 0.04) < 0.004)
    }

    @Test func valuesAreWholeMultiplesOfTheLSB() throws {
        let recording = try render("lsb: 0.0096\nstart portrait\nhold 3s walking")
        for row in recording.rows {
            for v in [row.raw.x, row.raw.y, row.raw.z] {
                let steps = v / 0.0096
                #expect(abs(steps - steps.rounded()) < 1e-6, "\(v) is not a multiple of 0.0096")
            }
        }
    }

    @Test func readingsClipAtFullScale() throws {
        let recording = try render("range: 2g\nlsb: 0\nstart portrait tilt 0\nshake 3s peak=30 along=y\nhold 1s")
        let largest = recording.rows.map { max(abs($0.raw.x), abs($0.raw.y), abs($0.raw.z)) }.max()!
        #expect(abs(largest - 2 * g) < 1e-3)
    }

    @Test func biasAndScaleErrorAreOnTheSensorsAxes() throws {
        let text = "sensor: ideal\nbias: 0.1, -0.2, 0.3\nscale-error: 1%, 0, -2%\nstart face-up\nhold 1s"
        let row = try render(text).rows[10]
        #expect(isClose(row.raw, Vector3(0.1, -0.2, g * 0.98 + 0.3), within: 1e-4))
    }

    @Test func randomCalibrationStaysWithinItsLimits() throws {
        for seed in 1...20 {
            let row = try render("sensor: ideal\nbias: random 0.25\nstart face-up\nhold 1s", seed: UInt64(seed)).rows[0]
            #expect(abs(row.raw.x) >= 0.075 - 1e-9 && abs(row.raw.x) <= 0.25 + 1e-9)
            #expect(abs(row.raw.y) >= 0.075 - 1e-9 && abs(row.raw.y) <= 0.25 + 1e-9)
        }
    }

    /// A reader computes corrected = M · raw; the simulator writes raw = M⁻¹ · corrected.
    @Test(arguments: [
        "0, 1, 0; -1, 0, 0; 0, 0, 1", "0, -1, 0; -1, 0, 0; 0, 0, 1", "-1, 0, 0; 0, 1, 0; 0, 0, -1", "2, 0, 0; 0, 0.5, 0; 0, 0, 1",
    ])
    func mountMatrixRoundTrip(matrix: String) throws {
        let body = "start portrait tilt 20\nhold 1s\nrotate landscape-left 0.5s\nhold 1s\nput-down face-down 0.8s\nhold 1s"
        let plain = try render("sensor: ideal\n" + body)
        let mounted = try render("sensor: ideal\nmount-matrix: \(matrix)\n" + body)
        #expect(mounted.header["mount-matrix"] == (try MountMatrix(parsing: matrix)).description)
        #expect(plain.rows.count == mounted.rows.count)
        let m = try MountMatrix(parsing: matrix)
        for (a, b) in zip(plain.rows, mounted.rows) {
            #expect(isClose(m.apply(b.raw), a.raw, within: 2e-4))
            #expect(a.expect == b.expect)
        }
        if !m.isIdentity { #expect(plain.rows[0].raw != mounted.rows[0].raw) }
    }

    @Test func aSingularMountMatrixIsRefused() {
        let e = parseError("mount-matrix: 1, 0, 0; 0, -1, 0; 1, 0, 0\nstart portrait\nhold 1s")
        #expect(e?.line == 1)
        #expect(e?.message.contains("singular") == true)
    }

    @Test func jitterDropsDuplicatesAndStalls() throws {
        let text = """
            sensor: ideal
            jitter: 3ms
            drop: 5%
            duplicate: 5%
            start portrait
            hold 10s
            hold 1.5s dropout
            hold 10s
            """
        let recording = try render(text)
        let times = recording.rows.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.contains(0), "no repeated timestamp")
        #expect(steps.contains { $0 > 0.025 && $0 < 0.1 }, "no lost sample")
        let stall = steps.max()!
        #expect(stall > 1.45 && stall < 1.56)
        #expect(!times.contains { $0 > 10.02 && $0 < 11.48 })
        // Off the 20 ms grid, by at most 45 % of a period.
        let offsets = times.map { $0 - ($0 * 50).rounded() / 50 }
        #expect(offsets.contains { abs($0) > 0.001 })
        #expect(offsets.allSatisfy { abs($0) <= 0.009 + 1e-6 })
        // About 1075 slots, 5 % lost, 5 % doubled.
        #expect(recording.rows.count > 1000 && recording.rows.count < 1150)
    }

    @Test func everyRateFromOneToAThousandHertz() throws {
        for rate in [1.0, 5, 10, 12.5, 50, 100, 400, 1000] {
            let recording = try render("rate: \(rate)\nstart portrait\nhold 2s\nrotate landscape-left 0.5s\nhold 2s")
            #expect(recording.rows.count == Int((4.5 * rate).rounded(.up)), "\(rate) Hz")
            #expect(abs(recording.rows[1].time - 1 / rate) < 1e-6)
            #expect(recording.rows.last!.expect == "landscape-left")
        }
    }

    @Test func averagingSmearsAJoltThatPointSamplingCatchesOrMisses() throws {
        let body = "start face-up\nhold 20s taps rate=2 peak=30"
        let averaged = try render("sensor: ideal\nfilter: average\n" + body).rows.map(\.raw.z).min()!
        let pointed = try render("sensor: ideal\nfilter: none\n" + body).rows.map(\.raw.z).min()!
        #expect(pointed < averaged, "point \(pointed) vs averaged \(averaged)")
        #expect(g - averaged > 3)
    }
}
