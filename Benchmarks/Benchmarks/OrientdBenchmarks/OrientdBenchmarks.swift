import Benchmark
import OrientdCore
import OrientdIO

#if canImport(Glibc)
    import Glibc
#endif

// Targets: classifier under 100 ns per sample; replay of a 1-million-sample
// (~30 MB) recording under 0.5 s, i.e. over 2 million samples per second.
// Each benchmark runs one million samples per iteration and reports per sample
// (scalingFactor .mega): read "ns" as ns per sample and throughput as samples per second.

let sampleCount = 1_000_000

/// A million readings of a hand-held device: the four upright poses and face-up in turn
/// every few seconds at 1 kHz, with noise and hand tremor, so the classifier does its
/// real work (filtering, proposals, holds), not a constant.
let readings: [Sample] = {
    var state: UInt64 = 0x5EED
    func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    let g = standardGravity
    let poses = [Vector3(0, -g, 1), Vector3(-g, 0, 1), Vector3(0, g, 1), Vector3(g, 0, 1), Vector3(0, 1, g)]
    var out: [Sample] = []
    out.reserveCapacity(sampleCount)
    for i in 0..<sampleCount {
        let t = Double(i) / 1000
        let pose = poses[(i / 3000) % poses.count]
        let noise = Vector3(uniform() - 0.5, uniform() - 0.5, uniform() - 0.5) * 0.3
        let tremor = Vector3(sin(t * 50), cos(t * 43), 0) * 0.2
        out.append(Sample(time: t, acceleration: pose + noise + tremor))
    }
    return out
}()

/// The same readings as a recording file of about 30 MB.
let recordingPath: String = {
    let path = "/tmp/orientd-benchmark-1M.csv"
    var header = RecordingHeader()
    header[RecordingHeader.Key.rate] = "1000"
    header[RecordingHeader.Key.mountMatrix] = "0, -1, 0; -1, 0, 0; 0, 0, 1"
    var bytes = Array(header.text.utf8)
    bytes.reserveCapacity(32 << 20)
    let writer = RecordingWriter()
    for sample in readings { writer.append(sample, to: &bytes) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return path
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal],
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(10),
        maxIterations: 10
    )

    Benchmark("Classifier, per sample") { benchmark in
        var classifier = OrientationClassifier()
        var changes = 0
        benchmark.startMeasurement()
        for sample in readings {
            if classifier.update(sample) != nil { changes += 1 }
        }
        benchmark.stopMeasurement()
        blackHole(changes)
    }

    Benchmark("Pipeline (matrix, classifier, policy, events), per sample") { benchmark in
        var pipeline = OrientationPipeline(mountMatrix: try! MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1"))
        var bytes = 0
        benchmark.startMeasurement()
        for sample in readings {
            if let event = pipeline.process(sample) { bytes += event.jsonLine.count }
        }
        benchmark.stopMeasurement()
        blackHole(bytes)
    }

    Benchmark("Replay of a 1M-sample recording from disk (read, parse, pipeline), per sample") { benchmark in
        let path = recordingPath
        benchmark.startMeasurement()
        let reader = try RecordingReader(path: path)
        var pipeline: OrientationPipeline?
        var events = 0
        try reader.read { item in
            switch item {
            case .header(_, let matrix, _): pipeline = OrientationPipeline(mountMatrix: matrix ?? .identity)
            case .sample(let sample, _): if pipeline?.process(sample) != nil { events += 1 }
            case .warning: break
            }
            return .proceed
        }
        reader.close()
        benchmark.stopMeasurement()
        blackHole(events)
    }
}
