import OrientdCore
import Testing

@testable import OrientdSimulation

/// Same scenario and seed, same bytes; chunks and whole agree; the generators are the
/// published algorithms.
struct DeterminismTests {
    static let busy = """
        description: everything at once
        jitter: 2ms
        drop: 2%
        duplicate: 2%
        start face-up
        hold 1s
        pick-up portrait 0.7s
        hold 2s walking tremor taps
        rotate landscape-left 0.5s walking tremor
        hold 2s vehicle turn-left
        shake 1s
        hold 1s buzz
        flip short 0.6s
        hold 1s dropout
        put-down face-down 0.8s
        hold 1s
        """

    @Test func sameScenarioAndSeedGiveTheSameBytes() throws {
        let a = Simulator(scenario: try makeScenario(Self.busy), seed: 42).render()
        let b = Simulator(scenario: try makeScenario(Self.busy), seed: 42).render()
        #expect(a == b)
        let c = Simulator(scenario: try makeScenario(Self.busy), seed: 43).render()
        #expect(a != c)
    }

    @Test func chunksAddUpToTheWhole() throws {
        let simulator = Simulator(scenario: try makeScenario("rate: 1000\nstart portrait\nhold 20s walking tremor"), seed: 9)
        var chunks: [[UInt8]] = []
        simulator.render { chunks.append($0) }
        #expect(chunks.count > 3)
        #expect(chunks.dropLast().allSatisfy { $0.count >= Simulator.chunkSize && $0.count < Simulator.chunkSize + 200 })
        #expect(chunks.flatMap { $0 } == simulator.render())
    }

    @Test func aLongRecordingStreams() throws {
        // 200 000 samples in about 64 KiB pieces; the whole never has to be in memory.
        let scenario = try makeScenario(
            "start portrait\nrepeat 64\nhold 30s walking\nrotate landscape-left 1s walking\nhold 30s walking\nrotate portrait 1s walking\nend\nhold 32s"
        )
        var lines = 0
        var largest = 0
        Simulator(scenario: scenario, seed: 1).render { chunk in
            largest = max(largest, chunk.count)
            lines += chunk.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
        #expect(lines == 4 + 200_000)  // three header lines and the column line
        #expect(largest < Simulator.chunkSize + 200)
    }

    @Test func theHeaderSaysHowToRegenerate() throws {
        let scenario = try makeScenario(
            "description: a test\nmount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1\nrate: 12.5\nstart portrait\nhold 1s", source: "x/y.scenario")
        let text = String(decoding: Simulator(scenario: scenario, seed: 7).render(), as: UTF8.self)
        #expect(
            text.hasPrefix(
                """
                # orientd-recording 1
                # rate-hz: 12.5
                # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
                # description: a test
                # generator: orientd-lab simulate x/y.scenario --seed 7
                time,x,y,z,expect
                0.000000,
                """))
    }

    @Test func splitMix64MatchesItsReferenceOutput() {
        // The first outputs for seed 0 of the reference C implementation.
        var generator = SplitMix64(state: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func boxMullerGivesStandardNormals() {
        var noise = GaussianNoise(generator: Xoshiro256StarStar(seed: 5))
        var values: [Double] = []
        for _ in 0..<100_000 { values.append(noise.next()) }
        #expect(abs(mean(values)) < 0.015)
        #expect(abs(standardDeviation(values) - 1) < 0.015)
        let tail = Double(values.filter { abs($0) > 3 }.count) / Double(values.count)
        #expect(abs(tail - 0.0027) < 0.001)
    }

    @Test func uniformsAreUniform() {
        var generator = Xoshiro256StarStar(seed: 11)
        var buckets = [Int](repeating: 0, count: 10)
        for _ in 0..<100_000 { buckets[Int(generator.nextUnit() * 10)] += 1 }
        #expect(buckets.allSatisfy { abs($0 - 10_000) < 500 })
        var a = Xoshiro256StarStar(seed: 3, stream: 1)
        var b = Xoshiro256StarStar(seed: 3, stream: 2)
        #expect(a.next() != b.next())
    }
}
