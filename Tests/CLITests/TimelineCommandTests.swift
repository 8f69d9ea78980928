import Foundation
import Testing

/// A scenario's `timeline` (docs/formats.md §8) through the binary: a bad action gets one
/// located line and exit 2 from `validate` and `run`; a good one is checked by `validate`
/// and run by `run`, its trace carrying the events.
@Suite struct TimelineCommandTests {
    static let ball = #"{"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}"#

    static func scenario(_ timeline: String) -> String {
        BadBody.with(#""crates": [{"id": "c", "position": [100, 100]}], "duration": 2, "timeline": \#(timeline)"#)
    }

    static let bad: [BadBody] = [
        BadBody(
            name: "timeline-remove-twice",
            json: scenario(#"[{"t": 0.5, "remove": "c"}, {"t": 1, "remove": "c"}]"#),
            path: "timeline[1].remove",
            says: #"no body "c" is present at step 120 (t = 1): removed at step 60 (t = 0.5) by timeline[0]"#),
        BadBody(
            name: "timeline-spawned-id-clash",
            json: scenario(
                #"[{"t": 0, "every": 0.5, "count": 2, "spawn": \#(ball)}, {"t": 1, "spawn": {"id": "ball#1", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}}]"#
            ),
            path: "timeline[1].spawn.id", says: #"duplicate id "ball#1""#),
        BadBody(
            name: "timeline-after-the-end", json: scenario(#"[{"t": 3, "remove": "c"}]"#), path: "timeline[0].t",
            says: "after the run's last step 240"),
        BadBody(
            name: "timeline-infinite-time", json: scenario(#"[{"t": 1e999, "remove": "c"}]"#), path: "timeline[0].t",
            says: "too large"),
    ]

    @Test(arguments: bad)
    func aBadTimelineExitsTwoWithOneLocatedLine(_ bad: BadBody) throws {
        try BadBodyTests().everyBadBodyExitsTwoNamingTheFieldPathBeforeChipmunkSeesIt(bad)
    }

    @Test func validateChecksATimelineAndRunAppliesIt() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "emitter.json", Self.scenario(#"[{"t": 0, "every": 0.5, "count": 3, "spawn": \#(Self.ball)}]"#))
        let validate = try TiltboxBinary.run(["validate", file], in: directory)
        #expect(validate.status == 0, "validate: \(validate.stderr)")
        #expect(validate.stdout.contains("; timeline: 3 actions"), "validate: \(validate.stdout)")
        let trace = directory.path("out.jsonl")
        let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
        #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let spawns = lines.filter { $0.hasPrefix(#"{"event":"spawn""#) }
        #expect(spawns.count == 3)
        #expect(spawns.first?.hasPrefix(#"{"event":"spawn","step":0,"t":0,"body":"ball#0","type":"dynamic""#) == true)
        #expect(lines.last?.hasPrefix(#"{"end":"complete","steps":240"#) == true)
    }

    @Test func verifyReplaysATimelineTraceAndDiffNamesTheFirstDifferingEvent() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "emitter.json",
            Self.scenario(
                #"[{"t": 0, "every": 0.5, "count": 3, "spawn": \#(Self.ball)}, {"t": 1.2, "remove": ["ball#0", "c"]}]"#)
        )
        let trace = directory.path("a.jsonl")
        let run = try TiltboxBinary.run(
            ["run", file, "--view", "none", "--trace", trace, "--every", "7", "-q"], in: directory)
        #expect(run.status == 0, "run: \(run.stderr)")
        let verify = try TiltboxBinary.run(["verify", "--against", trace], in: directory)
        #expect(verify.status == 0, "verify: \(verify.stderr)")
        #expect(verify.stdoutLines == ["identical: 36 records"])
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let edited = directory.path("b.jsonl")
        try text.replacingOccurrences(of: #""body":"c","reason":"timeline""#, with: #""body":"c","reason":"rule""#)
            .write(toFile: edited, atomically: true, encoding: .utf8)
        let diff = try TiltboxBinary.run(["diff", trace, edited], in: directory)
        #expect(diff.status == 1)
        #expect(
            diff.stdoutLines == [
                "differ: first divergence at step 144 (t = 1.2): the events differ: \(trace) "
                    + #"{"event":"remove","step":144,"t":1.2,"body":"c","reason":"timeline"}, \#(edited) "#
                    + #"{"event":"remove","step":144,"t":1.2,"body":"c","reason":"rule"}"#
            ], "\(diff.stdout)\(diff.stderr)")
        let against = try TiltboxBinary.run(["verify", "--against", edited], in: directory)
        #expect(against.status == 1)
    }

    @Test func summaryMetricsCountTheBodiesPresentAtTheLastRecord() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "emitter.json",
            Self.scenario(
                #"[{"t": 0, "every": 0.5, "count": 3, "spawn": \#(Self.ball)}, {"t": 1.2, "remove": ["ball#0", "c"]}]"#)
        )
        let trace = directory.path("t.jsonl"), summary = directory.path("s.json")
        let run = try TiltboxBinary.run(
            ["run", file, "--view", "none", "--trace", trace, "--summary-json", summary, "-q"], in: directory)
        #expect(run.status == 0, "run: \(run.stderr)")
        // The last record lists ball#1 and ball#2 (radius 8: reach 8), the crate and ball#0 gone.
        let (bodies, expected) = try JSONLines.bodyBounds(atStep: 240, reach: 8, trace: trace)
        #expect(bodies == 2)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        // (Foundation's JSON parser is not exact to the last bit: compared to 1e-9.)
        let bounds = try #require(metrics["bounds"] as? [Double])
        #expect(bounds.count == 4 && zip(bounds, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(metrics)")
    }

    @Test func verifyWithAToleranceFollowsTheBodiesPresent() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "emitter.json",
            Self.scenario(
                #"[{"t": 0, "every": 0.5, "count": 3, "spawn": \#(Self.ball)}, {"t": 1.2, "remove": ["ball#0", "c"]}]"#)
        )
        let trace = directory.path("t.jsonl")
        let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
        #expect(run.status == 0, "run: \(run.stderr)")
        let close = try TiltboxBinary.run(
            ["verify", "--against", trace, "--set", "world.gravity=[0,-980.000001]", "--tolerance", "0.01"],
            in: directory)
        #expect(close.status == 0, "\(close.stdout)\(close.stderr)")
        #expect(close.stdoutLines == ["equal within 0.01: 241 records (not bit for bit)"])
        // Beyond the tolerance, the divergence names the body by the bodies present at that
        // record (slot 1 is ball#0 there; the header lists only the crate).
        let far = try TiltboxBinary.run(
            ["verify", "--against", trace, "--set", "world.gravity=[0,-981]", "--tolerance", "10.5"], in: directory)
        #expect(far.status == 1)
        #expect(
            far.stdoutLines.first?.hasPrefix(
                #"differ: first divergence at step 110 (t = 0.9166666666666666): body "ball#0" field vy:"#) == true,
            "\(far.stdout)\(far.stderr)")
    }

    @Test func validateAndRunRefuseAnEmitterThatSpawnsIntoTheBodyItSpawnedTheStepBefore() throws {
        let directory = try TemporaryDirectory()
        // At 120 Hz, every 0.01 is due at steps 0, 2 and 3: "ball#2" comes the step after "ball#1",
        // which has fallen 5 px (600 px/s for 1/120 s), so the two circles of radius 8 overlap by 11.
        let file = try directory.write(
            "emitter.json",
            """
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 2,
             "timeline": [
              {"t": 0, "every": 0.01, "count": 3,
               "spawn": {"id": "ball", "position": [240, 200], "velocity": [0, -600], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}}]}

            """)
        let line =
            "\(file):4:13: timeline[0].spawn: the emitter spawns \"ball#2\" into \"ball#1\" spawned the step before "
            + "(they overlap by 11 px): space the spawns out (every) or give them a velocity that clears them"
        for arguments in [["validate", file], ["run", file, "--view", "none"]] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments[0]) exited \(result.status): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments[0]) wrote: \(result.stdout)")
            #expect(result.stderrLines == [line], "\(arguments[0])")
        }
    }
}
