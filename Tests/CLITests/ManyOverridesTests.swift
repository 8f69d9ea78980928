import Foundation
import Testing

/// `--set` scales: 16 000 of them (one per crate) are parsed, merged and applied in linear
/// time (they took 17.7 s in a release build when each searched the list so far and each
/// copied the crates array), and every one takes effect.
@Suite struct ManyOverridesTests {
    @Test func sixteenThousandSetOptionsAreAcceptedAndEachIsApplied() throws {
        let directory = try TemporaryDirectory()
        let count = 16_000
        let crates = (0..<count).map { i in
            #"{"id": "c\#(i)", "position": [\#(100 + 40 * (i % 128)), \#(100 + 40 * (i / 128))], "size": [10, 10]}"#
        }
        let scenario = try directory.write(
            "many.json",
            """
            {"format": "tiltbox-scenario/1", "world": {"size": [6000, 6000], "gravity": [0, 0]}, "duration": 1,
             "crates": [\(crates.joined(separator: ",\n"))]}
            """)
        // Crate i gets vx = i + 1: every override lands on its own crate.
        let sets = (0..<count).flatMap { ["--set", "crates[\($0)].velocity=[\($0 + 1),0]"] }
        let trace = directory.path("many.jsonl")
        let run = try TiltboxBinary.run(
            ["run", scenario, "--duration", "0.008", "--trace", trace, "--quiet"] + sets, in: directory)
        try #require(run.status == 0, "exit \(run.status): \(run.stderr)")

        let objects = try JSONLines.objects(file: trace)
        try #require(objects.count >= 3 && objects[1]["step"] as? Int == 0, "header, step 0, ..., end line")
        let overrides = (objects[0]["source"] as? [String: Any])?["overrides"] as? [String: Any] ?? [:]
        #expect(overrides.count == count, "the header records \(overrides.count) overrides")
        let states = try #require(objects[1]["s"] as? [[Any]])
        try #require(states.count == count)
        let vx = states.map { JSONLines.number($0[3]) }
        #expect(vx == (0..<count).map { Double($0 + 1) }, "vx of the crates does not match their --set")
    }
}
