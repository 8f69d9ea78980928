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
}
