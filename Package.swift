// swift-tools-version: 6.0
import PackageDescription

// The package is split the way data flows: a pure core (no I/O, no global state),
// thin adapters around it, and a thin executable that wires them.
// Benchmarks live in their own package under Benchmarks/ so that packagers and CI's
// test build do not compile the benchmark harness and its dependencies.

// Modules off the per-sample path of `replay` and `explain` (the simulator, the client,
// the live sensors' adapters, read at 50 Hz at most) are optimised for size in release
// builds: the installed binary's target is 16 MB (docs/development.md "Size").
let optimisedForSize: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "orientd",
    products: [
        .executable(name: "orientd", targets: ["orientd"]),
        .library(name: "OrientdCore", targets: ["OrientdCore"]),
        .library(name: "OrientdSimulation", targets: ["OrientdSimulation"]),
        .library(name: "OrientdIO", targets: ["OrientdIO"]),
        .library(name: "OrientdDaemon", targets: ["OrientdDaemon"]),
        // For apps: the orientation, a lock, the changes (Examples/ shows one).
        .library(name: "OrientdClient", targets: ["OrientdClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // Types, mount matrix, classifier, lock policy, recording codec, event encoding.
        .target(name: "OrientdCore"),
        // The physical model that synthesises labelled recordings.
        .target(name: "OrientdSimulation", dependencies: ["OrientdCore"], swiftSettings: optimisedForSize),
        // Adapters: files and standard streams, pacing, threads and their wake-ups.
        .target(
            name: "OrientdIO",
            dependencies: [
                "OrientdCore", "CLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // A Swift program's side of the control socket: ScreenOrientation (the API the
        // platforms give apps) on a lasting session, and the line client ctl and monitor
        // use. Needs none of the sensor libraries.
        .target(
            name: "OrientdClient",
            dependencies: [
                "OrientdCore", "OrientdIO",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: optimisedForSize),
        // The C libraries for live sensors, through pkg-config.
        .systemLibrary(name: "CIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // Adapters for live sensors: libiio devices and buffers, libudev discovery and
        // hot-plug, libevdev for the tablet-mode switch, the threads that block on them,
        // and the daemon's source made of them (`SensorSource`).
        .target(
            name: "OrientdLinux",
            dependencies: [
                "OrientdCore", "OrientdIO", "OrientdDaemon", "CIIO", "CUdev", "CEvdev",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: optimisedForSize),
        // signalfd, eventfd, pidfd, posix_spawn and mallopt, which Swift's Glibc module lacks.
        .systemLibrary(name: "CLinux"),
        // The daemon around the pipeline: the control loop, the socket and its clients,
        // hooks, signals, the persisted lock, and the recording source. It needs none of
        // the sensor libraries: the live source is OrientdLinux's.
        .target(
            name: "OrientdDaemon",
            dependencies: [
                "OrientdCore", "OrientdIO", "CLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The option groups orientd and orientd-lab share (the screen's policy, the mount
        // matrix, the classifier's parameters, the adaptive rate) and the pipeline they make.
        .target(
            name: "OrientdOptions",
            dependencies: ["OrientdCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The command line: one type per subcommand.
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientdCore", "OrientdIO", "OrientdLinux", "OrientdDaemon", "OrientdClient", "OrientdOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The laboratory's judge: a labelled recording played as replay plays it, each
        // labelled stretch checked, and the figures and targets of the classifier.
        .target(name: "OrientdEvaluation", dependencies: ["OrientdCore", "OrientdIO"]),
        // The laboratory: `orientd-lab simulate` synthesises labelled recordings with the
        // physical model, `orientd-lab evaluate` judges the classifier on them. Built with
        // the package, never installed: what ships is `orientd`.
        .executableTarget(
            name: "orientd-lab",
            dependencies: [
                "OrientdCore", "OrientdIO", "OrientdSimulation", "OrientdEvaluation", "OrientdOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(name: "OrientdCoreTests", dependencies: ["OrientdCore", "OrientdEvaluation"]),
        .testTarget(name: "OrientdEvaluationTests", dependencies: ["OrientdEvaluation", "OrientdCore"]),
        .testTarget(name: "OrientdSimulationTests", dependencies: ["OrientdSimulation", "OrientdCore", "OrientdEvaluation"]),
        // Plays every bundled recording and judges it against its labels.
        .testTarget(name: "RecordingsTests", dependencies: ["OrientdCore", "OrientdIO", "OrientdEvaluation"]),
        // Runs the built binary for the tests that use it: to its end, or as a daemon
        // read line by line, with a client of its socket.
        .target(
            name: "OrientdTestSupport", dependencies: ["OrientdCore", "OrientdIO", "OrientdDaemon", "OrientdClient"], path: "Tests/Support"),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "orientd", "orientd-lab", "OrientdCore", "OrientdIO", "OrientdDaemon", "OrientdClient", "OrientdOptions",
                "OrientdEvaluation", "OrientdTestSupport",
            ]),
        // The rotation scripts and the suggestion's notification against real compositors
        // (sway, mutter, kwin), a real X server and mako: switched on by the
        // real-counterpart tier (scripts/test --all).
        .testTarget(name: "DesktopTests", dependencies: ["orientd", "OrientdTestSupport"]),
        // The unit under a real systemd as PID 1 in a booted container (scripts/test --all).
        .testTarget(name: "SystemdTests", dependencies: ["orientd", "OrientdTestSupport"]),
        // Live sensors against a umockdev testbed: the real libiio and libudev read a fake
        // sysfs and /dev. Runs under umockdev-wrapper (make test does that).
        .systemLibrary(
            name: "CUmockdev", path: "Tests/CUmockdev", pkgConfig: "umockdev-1.0",
            providers: [.apt(["libumockdev-dev"])]),
        .testTarget(
            name: "LiveSensorTests",
            dependencies: [
                "orientd", "OrientdCore", "OrientdLinux", "OrientdDaemon", "OrientdClient", "CUmockdev", "OrientdTestSupport",
            ]),
        // The Debian package make deb builds, held to its size and library targets
        // (scripts/lib/size-targets). It builds the package, so scripts/test runs it alone.
        .testTarget(name: "PackageTests", dependencies: ["OrientdTestSupport"]),
        // orientd on a real kernel under qemu (scripts/vm): the virtual sensor below,
        // played into the daemon installed from the .deb.
        // Its guest side is in guest/: shell scripts, read and sent to the guest by name.
        // The harness's own decisions without a guest: scripts/vm's unit tests.
        .testTarget(name: "HarnessTests", dependencies: ["OrientdTestSupport"]),
        .testTarget(name: "RealKernelTests", dependencies: ["orientd", "OrientdCore", "OrientdTestSupport"], exclude: ["guest"]),
        // Test tooling for the real-kernel guest (scripts/vm): a HID sensor hub over
        // /dev/uhid that the kernel's own drivers make an IIO accelerometer of, and a
        // uinput tablet-mode switch, playing orientd recordings. Not shipped.
        .systemLibrary(name: "CVirtualDevices", path: "Tests/CVirtualDevices"),
        .executableTarget(
            name: "virtual-sensor",
            dependencies: [
                "OrientdCore", "OrientdIO", "OrientdClient", "CVirtualDevices", "CEvdev",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/VirtualSensor"),
    ],
    swiftLanguageModes: [.v6]
)
