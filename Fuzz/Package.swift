// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for orientd's parsers of untrusted input: recordings, mount matrices,
// IIO scan layouts and the control protocol. A package of its own, like Benchmarks/, so
// that building and testing orientd never needs the fuzzer runtime. Run: `make fuzz`
// (scripts/fuzz builds it with the fuzzer and address sanitizers); see README.md.
let fuzzers = ["FuzzRecordingParser", "FuzzMountMatrix", "FuzzScanLayout", "FuzzControlProtocol"]

let package = Package(
    name: "orientd-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "orientd", path: "..")
    ],
    targets: [
        // What every fuzzer needs: checks that report in optimized builds, exact copies.
        .target(name: "FuzzSupport")
    ]
        + fuzzers.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", .product(name: "OrientdCore", package: "orientd")]
            )
        },
    swiftLanguageModes: [.v6]
)
