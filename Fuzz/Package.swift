// swift-tools-version: 6.1
// The libFuzzer harness for Tiltbox's parsers. A package of its own because a fuzzer
// has no `main` (libFuzzer provides it): build it only with
//   swift build --sanitize fuzzer --sanitize address
// as `make fuzz` does. The entry points live in the library (`ParserFuzzing`), so the
// regression tests replay the same code.
import PackageDescription

let package = Package(
    name: "TiltboxFuzz",
    dependencies: [.package(name: "Tiltbox", path: "..")],
    targets: [
        .executableTarget(
            name: "TiltboxFuzz",
            dependencies: [.product(name: "Tiltbox", package: "Tiltbox")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
