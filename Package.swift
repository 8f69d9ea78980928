// swift-tools-version: 6.2
import PackageDescription

// Every warning in the project's own targets is an error (a warning nobody reads hides the
// one that matters). SwiftPM applies these to this package's targets only: warnings inside
// dependencies stay warnings.
let strictSwift: [SwiftSetting] = [.treatAllWarnings(as: .error)]
let strictC: [CSetting] = [.treatAllWarnings(as: .error)]
let strictCXX: [CXXSetting] = [.treatAllWarnings(as: .error)]

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
        // statfs's file-system type (<sys/vfs.h>), to refuse /proc, /sys and their kin as inputs.
        .systemLibrary(name: "CFileSystem"),
        // Shortest round-trip double formatting for traces: its own fast path, fmt's Dragonbox
        // (Debian's libfmt-dev, header-only) for the close calls, laid out exactly as Swift's description.
        .target(name: "CNumberFormat", cxxSettings: strictCXX),
        // The trace digest's FNV-1a core over doubles (two instructions a byte on x86-64).
        .target(name: "CDigest", cSettings: strictC),
        // The benchmark's reference scene in raw Chipmunk (used by tiltbox-bench and a test only).
        .target(
            name: "CReferencePile",
            cSettings: strictC,
            linkerSettings: [.linkedLibrary("chipmunk")]
        ),
        // The bench's small scenes (stack, pivot chain, cradle, pyramid) in raw Chipmunk (tiltbox-bench only).
        .target(
            name: "CReferenceScene",
            cSettings: strictC,
            linkerSettings: [.linkedLibrary("chipmunk")]
        ),
        // Scenes of crates and joints in raw Chipmunk (a test compares them with Tiltbox bit for bit).
        .target(
            name: "CReferenceJoints",
            cSettings: strictC,
            linkerSettings: [.linkedLibrary("chipmunk")]
        ),
        // `prctl(PR_SET_PDEATHSIG)` for batch children (variadic in glibc, so not importable).
        .target(name: "CProcessControl", cSettings: strictC),
        .target(
            name: "Tiltbox",
            dependencies: [
                "CChipmunk",
                "CNumberFormat",
                "CDigest",
                "CProcessControl",
                "CZstd",
                "CFileSystem",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "tiltbox",
            dependencies: [
                "Tiltbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // Tools behind `make soak` and `make leakcheck`.
        .executableTarget(name: "tiltbox-soak", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .executableTarget(name: "tiltbox-leakcheck", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .executableTarget(
            name: "tiltbox-bench",
            dependencies: ["Tiltbox", "CReferencePile", "CReferenceScene", "CNumberFormat"],
            swiftSettings: strictSwift
        ),
        // The cost per step of spawns and removals against the same bodies present from the start.
        .executableTarget(name: "tiltbox-emitter-bench", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        // Counts the calling thread's heap allocations (AllocationTests: a run's steps allocate nothing).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter", cSettings: strictC),
        .testTarget(
            name: "AllocationTests", dependencies: ["Tiltbox", "AllocationCounter"], swiftSettings: strictSwift),
        .testTarget(name: "EngineTests", dependencies: ["Tiltbox", "CReferenceJoints"], swiftSettings: strictSwift),
        .testTarget(name: "BenchSceneTests", dependencies: ["Tiltbox", "CReferencePile"], swiftSettings: strictSwift),
        .testTarget(name: "SteppingTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(name: "ScenarioTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(name: "TraceTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(
            name: "InputTests", dependencies: ["Tiltbox"], resources: [.copy("Fixtures")], swiftSettings: strictSwift),
        .testTarget(name: "ViewTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(name: "ReliabilityTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(name: "RenderTests", dependencies: ["Tiltbox"], swiftSettings: strictSwift),
        .testTarget(name: "CLITests", dependencies: ["Tiltbox", "tiltbox"], swiftSettings: strictSwift),
        // docs/schema/*.schema.json against the scenario and keyframe loaders (Python's jsonschema, `make test-deps`).
        .testTarget(
            name: "SchemaTests", dependencies: ["Tiltbox"],
            exclude: ["schema-cases.py", "every-key.json", "every-key-keyframes.json"], swiftSettings: strictSwift),
    ],
    swiftLanguageModes: [.v6]
)
