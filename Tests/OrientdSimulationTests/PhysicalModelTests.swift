import Foundation
import OrientdCore
import Testing

@testable import OrientdSimulation

/// The physics: rest readings, attitudes, and the size and rhythm of movements.
struct PhysicalModelTests {
    /// docs/events.md, "Axes and names", one row per pose.
    static let restReadings: [(pose: String, reading: Vector3)] = [
        ("portrait tilt 0", Vector3(0, -g, 0)),
        ("landscape-left tilt 0", Vector3(-g, 0, 0)),
        ("portrait-upside-down tilt 0", Vector3(0, g, 0)),
        ("landscape-right tilt 0", Vector3(g, 0, 0)),
        ("face-up", Vector3(0, 0, g)),
        ("face-down", Vector3(0, 0, -g)),
    ]

    @Test(arguments: restReadings.indices)
    func restReadingMatchesTheLinuxTable(row: Int) throws {
        let (pose, reading) = Self.restReadings[row]
        let exact = Simulator(scenario: try makeScenario("sensor: ideal\nstart \(pose)\nhold 1s"), seed: 1)
        #expect(isClose(exact.trueReading(at: 0.5), reading, within: 1e-9))

        // A real part: bias up to 0.25 m/s², scale error up to 2 %, noise, quantisation.
        let recording = try render("start \(pose)\nhold 2s")
        let values = recording.corrected
        let average = Vector3(mean(values.map(\.x)), mean(values.map(\.y)), mean(values.map(\.z)))
        #expect(isClose(average, reading, within: 0.25 + 0.02 * g + 0.02), "\(average) vs \(reading)")
    }

    @Test func labelsOfStillPosesAreTheirNames() throws {
        for (pose, _) in Self.restReadings {
            let recording = try render("start \(pose)\nhold 1s")
            let name = String(pose.split(separator: " ")[0])
            #expect(recording.rows.allSatisfy { $0.expect == name }, "\(pose)")
        }
    }

    @Test func upDirectionFormulaAgreesWithTheQuaternion() {
        var generator = Xoshiro256StarStar(seed: 7)
        for _ in 0..<200 {
            let a = Attitude(roll: generator.uniform(0, 360), tilt: generator.uniform(-90, 90), heading: generator.uniform(-180, 180))
            let fromQuaternion = a.quaternion.conjugate.rotate(Vector3(0, 0, 1))
            #expect(isClose(fromQuaternion, a.up, within: 1e-12))
            let (roll, tilt) = Attitude.rollAndTilt(of: a.quaternion)
            #expect(abs(tilt - a.tilt) < 1e-6)
            if abs(a.tilt) < 89 {
                #expect(LabelRules.rollDistance(roll, to: .portrait) - LabelRules.rollDistance(a.roll, to: .portrait) < 1e-6)
            }
        }
    }

    @Test func turningToLandscapeKeepsTheScreenFacingTheUser() throws {
        // Portrait to landscape-left at the same tilt: a quarter turn about the screen's
        // normal, not the shorter diagonal swing (75.5°) that would point it elsewhere.
        let scenario = try makeScenario("start portrait tilt 30\nrotate landscape-left 1s")
        let turn = scenario.segments[0]
        #expect(abs(turn.angle.degrees - 90) < 1e-9)
        #expect(abs(abs(turn.axis.z) - 1) < 1e-9)
        let normalBefore = turn.attitude(fraction: 0).rotate(Vector3(0, 0, 1))
        let normalAfter = turn.attitude(fraction: 1).rotate(Vector3(0, 0, 1))
        #expect(isClose(normalBefore, normalAfter, within: 1e-9))
    }

    @Test(arguments: [(0.0, 90.0), (30.0, 90.0), (0.0, 35.0), (90.0, 20.0), (200.0, -70.0)])
    func flipFormulasMatchTheRotation(roll: Double, tilt: Double) throws {
        for axis in ["long", "short"] {
            let scenario = try makeScenario("sensor: ideal\nstart roll \(roll) tilt \(tilt)\nflip \(axis) 0.6s\nhold 1s")
            let flip = scenario.segments[0]
            let rotated = flip.attitude(fraction: 1)
            let claimed = flip.to.quaternion
            #expect(abs(abs(rotated.dot(claimed)) - 1) < 1e-9, "\(axis) flip from roll \(roll) tilt \(tilt)")
        }
    }

    @Test func minimumJerkPeaksWhereTheTheorySays() {
        var peak = 0.0
        for i in 0...100_000 { peak = max(peak, MinimumJerk.acceleration(Double(i) / 100_000)) }
        #expect(abs(peak - MinimumJerk.peakAcceleration) < 1e-6)
        #expect(MinimumJerk.position(0) == 0 && MinimumJerk.position(1) == 1)
        #expect(MinimumJerk.velocity(0.5) == MinimumJerk.peakVelocity)
    }

    @Test func aLiftHasTheMinimumJerkPeak() throws {
        // 30 cm straight up in 0.6 s: peak 5.77 · 0.3 / 0.36 = 4.81 m/s² up, then as much down.
        let sim = Simulator(scenario: try makeScenario("sensor: ideal\nstart face-up\nhold 1s\nmove 0.6s up=0.3\nhold 1s"), seed: 1)
        var high = -Double.infinity
        var low = Double.infinity
        for i in 0...6000 {
            let z = sim.trueReading(at: 1 + Double(i) / 10_000).z - g
            high = max(high, z)
            low = min(low, z)
        }
        let expected = MinimumJerk.peakAcceleration * 0.3 / 0.36
        #expect(abs(high - expected) < 0.01)
        #expect(abs(low + expected) < 0.01)
    }

    @Test func pickingUpFromATableGivesSeveralMetresPerSecondSquared() throws {
        let text = "sensor: ideal\nstart face-up\nhold 1s\npick-up portrait tilt 35 0.7s\nhold 1s"
        let sim = Simulator(scenario: try makeScenario(text), seed: 1)
        let pickUp = sim.scenario.segments[1]
        var peak = 0.0
        for i in 0...700 {
            let t = 1 + Double(i) / 1000
            // Back into the world frame: what the hand does, gravity taken out.
            let world = pickUp.attitude(at: t).rotate(sim.trueReading(at: t)) - Vector3(0, 0, g)
            peak = max(peak, world.length)
        }
        #expect(peak > 3.5 && peak < 9, "peak \(peak) m/s²")
        #expect(pickUp.label == nil)
        #expect(sim.scenario.segments[2].label == .pose(.portrait))
    }

    @Test func turningAboutTheWristAddsCentripetalAcceleration() throws {
        // A quarter turn in 0.6 s with the sensor 7 cm from the pivot. Halfway through the
        // angular acceleration is zero and the angular speed is 1.875 · (π/2) / 0.6, so
        // the sensor accelerates by ω²r towards the pivot.
        let text = "sensor: ideal\nstart portrait tilt 0\nhold 1s\nrotate landscape-left 0.6s pivot=0,0.07,0\nhold 1s"
        let sim = Simulator(scenario: try makeScenario(text), seed: 1)
        let turn = sim.scenario.segments[1]
        let t = 1.3
        let world = turn.attitude(at: t).rotate(sim.trueReading(at: t)) - Vector3(0, 0, g)
        let omega = MinimumJerk.peakVelocity * (Double.pi / 2) / 0.6
        #expect(abs(world.length - omega * omega * 0.07) < 0.005)
        let towardsPivot = turn.attitude(at: t).rotate(Vector3(0, 0.07, 0)).normalized
        #expect(world.normalized.dot(towardsPivot) > 0.999)
        // Still before and after: exactly gravity.
        #expect(isClose(sim.trueReading(at: 0.99), Vector3(0, -g, 0), within: 1e-9))
        #expect(isClose(sim.trueReading(at: 1.61), Vector3(-g, 0, 0), within: 1e-9))
    }

    @Test func walkingHasItsStepFrequency() throws {
        let recording = try render("sensor: ideal\nstart portrait tilt 20\nhold 20s walking step=1.8")
        let magnitude = recording.corrected.map(\.length)
        var best = (frequency: 0.0, amplitude: 0.0)
        for i in 30...500 {
            let f = Double(i) / 100
            let a = amplitude(of: magnitude, rate: 50, at: f)
            if a > best.amplitude { best = (f, a) }
        }
        #expect(abs(best.frequency - 1.8) < 0.08, "strongest rhythm at \(best.frequency) Hz")
        #expect(best.amplitude > 1.2 && best.amplitude < 3.5, "vertical swing \(best.amplitude) m/s²")
        // Sideways sway at half the step frequency, along the device's x axis in portrait.
        let x = recording.corrected.map(\.x)
        #expect(amplitude(of: x, rate: 50, at: 0.9) > 0.3)
    }

    @Test func aVehicleVibratesWithTheAskedStrength() throws {
        let sim = Simulator(scenario: try makeScenario("sensor: ideal\nstart face-up\nhold 30s vehicle vibration=0.6 bumps=0"), seed: 3)
        var z: [Double] = []
        for i in 0..<30_000 { z.append(sim.trueReading(at: 0.5 + Double(i) / 1000 * 0.98).z) }
        let rms = standardDeviation(z)
        #expect(rms > 0.45 && rms < 0.8, "vertical RMS \(rms)")
    }

    @Test func bumpsAreShortAndHard() throws {
        let sim = Simulator(
            scenario: try makeScenario("sensor: ideal\nstart face-up\nhold 60s vehicle vibration=0 bumps=0.5 bump=8"), seed: 5)
        var peak = 0.0
        for i in 0..<60_000 { peak = max(peak, abs(sim.trueReading(at: Double(i) / 1000).z - g)) }
        #expect(peak > 5 && peak < 12, "hardest bump \(peak) m/s²")
    }

    @Test func tapsPushIntoTheScreenAndLeaveNoVelocity() throws {
        let sim = Simulator(scenario: try makeScenario("sensor: ideal\nstart face-up\nhold 10s taps rate=1 peak=30"), seed: 2)
        var lowest = 0.0
        var integral = 0.0
        let dt = 0.0002
        for i in 0..<50_000 {
            let dz = sim.trueReading(at: Double(i) * dt).z - g
            lowest = min(lowest, dz)
            integral += dz * dt
        }
        #expect(lowest < -12 && lowest >= -30.001, "hardest tap \(lowest) m/s²")
        #expect(abs(integral) < 0.01, "velocity left behind: \(integral) m/s")
    }

    @Test func shakingReachesItsPeakAtItsFrequency() throws {
        let recording = try render("sensor: ideal\nrate: 200\nstart portrait tilt 30\nshake 4s freq=4 peak=15 twist=0\nhold 1s")
        let x = recording.corrected.prefix(800).map(\.x)
        #expect(x.map(abs).max()! > 12 && x.map(abs).max()! < 20)
        #expect(amplitude(of: x, rate: 200, at: 4) > 8)
        #expect(recording.rows.prefix(800).allSatisfy { $0.expect == "-" })
        #expect(recording.rows.suffix(100).allSatisfy { $0.expect == "portrait" })
    }

    @Test func tremorWobblesBySomeTenthsOfADegree() throws {
        let sim = Simulator(scenario: try makeScenario("sensor: ideal\nstart portrait tilt 0\nhold 10s tremor amp=1"), seed: 4)
        var largest = 0.0
        for i in 0..<10_000 {
            let r = sim.trueReading(at: Double(i) / 1000)
            largest = max(largest, atan2(-r.x, -r.y).degrees)
        }
        #expect(largest > 0.3 && largest < 3, "largest roll wobble \(largest)°")
    }
}
