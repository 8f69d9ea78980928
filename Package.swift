// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tiltbox",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Tiltbox", targets: ["Tiltbox"]),
        .executable(name: "tiltbox", targets: ["tiltbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // The C boundary: Debian's libchipmunk-dev (Chipmunk 7.0.3), no pkg-config file.
        .systemLibrary(
            name: "CChipmunk",
            providers: [.apt(["libchipmunk-dev"])]
        ),
        .target(
            name: "Tiltbox",
            dependencies: [
                "CChipmunk",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .executableTarget(
            name: "tiltbox",
            dependencies: [
                "Tiltbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Tools behind `make soak` and `make leakcheck`.
        .executableTarget(name: "tiltbox-soak", dependencies: ["Tiltbox"]),
        .executableTarget(name: "tiltbox-leakcheck", dependencies: ["Tiltbox"]),
        .testTarget(name: "EngineTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "SteppingTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "TraceTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "InputTests", dependencies: ["Tiltbox"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ViewTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "RenderTests", dependencies: ["Tiltbox"]),
        .testTarget(name: "CLITests", dependencies: ["Tiltbox", "tiltbox"]),
    ],
    swiftLanguageModes: [.v6]
)
