// swift-tools-version: 6.1
import PackageDescription

// Benchmarks are a package of their own so that building and testing orientd does not
// compile the benchmark harness. Run: `make benchmark` (or `cd Benchmarks && swift package benchmark`).
let package = Package(
    name: "orientd-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "orientd", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "OrientdBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OrientdCore", package: "orientd"),
                .product(name: "OrientdIO", package: "orientd"),
            ],
            path: "Benchmarks/OrientdBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The delay from a sample to the event at the 256th socket subscriber (target: under 1 ms at the median).
        .executableTarget(
            name: "SubscriberLatency",
            dependencies: [
                .product(name: "OrientdCore", package: "orientd"),
                .product(name: "OrientdIO", package: "orientd"),
                .product(name: "OrientdDaemon", package: "orientd"),
                .product(name: "OrientdClient", package: "orientd"),
            ],
            path: "Benchmarks/SubscriberLatency"
        ),
        // An hour of a 1 kHz sensor, compressed, with subscribers, hooks and hot-plugs.
        .executableTarget(
            name: "Soak",
            dependencies: [
                .product(name: "OrientdCore", package: "orientd"),
                .product(name: "OrientdIO", package: "orientd"),
                .product(name: "OrientdDaemon", package: "orientd"),
                .product(name: "OrientdClient", package: "orientd"),
            ],
            path: "Benchmarks/Soak"
        ),
    ]
)
