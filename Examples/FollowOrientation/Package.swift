// swift-tools-version: 6.0
import PackageDescription

// An app's use of orientd through its Swift client library. In your own package, depend
// on orientd by its repository URL instead of this path.
let package = Package(
    name: "FollowOrientation",
    dependencies: [
        .package(name: "orientd", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "follow-orientation",
            dependencies: [.product(name: "OrientdClient", package: "orientd")]
        )
    ],
    swiftLanguageModes: [.v6]
)
