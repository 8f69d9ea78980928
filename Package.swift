// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tiltbox",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Tiltbox", targets: ["Tiltbox"]),
        .executable(name: "tiltbox", targets: ["tiltbox"]),
        .executable(name: "tiltbox-bench", targets: ["tiltbox-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `make docs`: the DocC catalog in Sources/Tiltbox/Tiltbox.docc (no code depends on it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The C boundary: Debian's libchipmunk-dev (Chipmunk 7.0.3), no pkg-config file.
        .systemLibrary(
            name: "CChipmunk",
            providers: [.apt(["libchipmunk-dev"])]
        ),
        // Compressed traces (`.zst`): Debian's libzstd-dev, its streaming API, no pkg-config.
        .systemLibrary(
            name: "CZstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // Shortest round-trip double formatting for traces: its own fast path, fmt's Dragonbox
        // (Debian's libfmt-dev, header-only) for the close calls, laid out exactly as Swift's description.
        .target(name: "CNumberFormat"),
        // The benchmark's reference scene in raw Chipmunk (used by tiltbox-bench and a test only).
        .target(
            name: "CReferencePile",
            linkerSettings: [.linkedLibrary("chipmunk")]
        ),
        // Scenes of crates and joints in raw Chipmunk (a test compares them with Tiltbox bit for bit).
        .target(
            name: "CReferenceJoints",
            linkerSettings: [.linkedLibrary("chipmunk")]
        ),
        .target(
            name: "Tiltbox",
            dependencies: [
                "CChipmunk",
                "CNumberFormat",
                "CZstd",
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
        .executableTarget(
            name: "tiltbox-bench",
            dependencies: ["Tiltbox", "CReferencePile", "CNumberFormat"]
        ),
        .testTarget(name: "EngineTests", dependencies: ["Tiltbox", "CReferenceJoints"]),
        .testTarget(name: "BenchSceneTests", dependencies: ["Tiltbox", "CReferencePile"]),
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
