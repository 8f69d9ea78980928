import Foundation
import Testing

/// Collision rules and culling (docs/formats.md §8) through the binary: a bad rule gets one located
/// line and exit 2 from `validate` and `run`; a good one is checked by `validate`, run by `run`
/// (its events and the end line's counters in the trace), and `diff` and `verify` compare them.
@Suite struct RuleCommandTests {
    static let ball =
        #"{"id": "ball", "position": [240, 100], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]}"#

    static func scenario(_ rules: String, cull: String = "") -> String {
        BadBody.with(#""duration": 1, "bodies": [\#(ball)], "rules": \#(rules)\#(cull)"#)
    }

    static let bad: [BadBody] = [
        BadBody(
            name: "rule-unknown-type", json: scenario(#"[{"on": "begin", "between": ["ball", "brick"]}]"#),
            path: "rules[0].between[1]",
            says: #"no shape has collisionType "brick" (collision types in this file: ball)"#),
        BadBody(
            name: "rule-wildcard-first", json: scenario(#"[{"on": "begin", "between": ["*", "ball"]}]"#),
            path: "rules[0].between[0]", says: #""*" may only come second"#),
        BadBody(
            name: "rule-bad-side",
            json: scenario(#"[{"on": "begin", "between": ["ball", "*"], "do": [{"remove": "c"}]}]"#),
            path: "rules[0].do[0].remove", says: #"unknown value "c""#),
        BadBody(
            name: "rule-makes-dynamic",
            json: scenario(
                #"[{"on": "begin", "between": ["ball", "*"], "do": [{"set": {"body": "b", "type": "dynamic"}}]}]"#),
            path: "rules[0].do[0].set.type", says: "a rule cannot make a body dynamic"),
        BadBody(
            name: "cull-negative",
            json: #"{"format": "tiltbox-scenario/1", "world": {"size": [480, 320], "cull": {"margin": -5}}}"#,
            path: "world.cull.margin", says: "must be ≥ 0"),
    ]

    @Test(arguments: bad)
    func aBadRuleExitsTwoWithOneLocatedLine(_ bad: BadBody) throws {
        try BadBodyTests().everyBadBodyExitsTwoNamingTheFieldPathBeforeChipmunkSeesIt(bad)
    }

    @Test func runWritesRuleEventsAndCountersThatDiffAndVerifyCompare() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "bounce.json",
            Self.scenario(
                #"[{"on": "begin", "between": ["ball", "*"], "do": [{"count": "floor"}, {"impulse": {"body": "a", "impulse": [0, 50]}}]}]"#
            ))
        let validate = try TiltboxBinary.run(["validate", file], in: directory)
        #expect(validate.status == 0, "validate: \(validate.stderr)")
        #expect(validate.stdout.contains("; rules: 1 rule (counters: floor)"), "validate: \(validate.stdout)")
        let trace = directory.path("out.jsonl")
        let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
        #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let begins = lines.filter { $0.hasPrefix(#"{"event":"begin""#) }
        #expect(!begins.isEmpty)
        #expect(begins.allSatisfy { $0.hasSuffix(#","a":"ball","b":"static","rule":0}"#) }, "\(begins)")
        let end = try #require(lines.last)
        #expect(end.hasPrefix(#"{"end":"complete","steps":120"#))
        #expect(end.hasSuffix(#","counters":{"floor":\#(begins.count)}}"#), "\(end)")

        let verify = try TiltboxBinary.run(["verify", "--against", trace], in: directory)
        #expect(verify.status == 0, "verify: \(verify.stdout) \(verify.stderr)")
        // Another count on the end line is a divergence, named.
        let changed = try directory.write(
            "changed.jsonl",
            text.replacingOccurrences(of: #""counters":{"floor":\#(begins.count)}"#, with: #""counters":{"floor":99}"#))
        let diff = try TiltboxBinary.run(["diff", trace, changed], in: directory)
        #expect(diff.status == 1, "diff: \(diff.stdout) \(diff.stderr)")
        #expect(
            (diff.stdout + diff.stderr).contains(#"the counter "floor" differs at the end"#),
            "\(diff.stdout) \(diff.stderr)")
        // An event for another rule is a divergence too.
        let other = try directory.write(
            "other.jsonl", text.replacingOccurrences(of: #""rule":0}"#, with: #""rule":1}"#))
        let eventDiff = try TiltboxBinary.run(["diff", trace, other], in: directory)
        #expect(eventDiff.status == 1, "diff: \(eventDiff.stdout) \(eventDiff.stderr)")
    }

    @Test func cullingRemovesABodyThatLeavesTheWorldWithAnEvent() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "fall.json",
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320], "cull": {"margin": 30}}, "walls": {"box": false},
             "duration": 1, "crates": [{"id": "c", "position": [240, 100]}]}
            """#)
        let trace = directory.path("out.jsonl")
        let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
        #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let removes = lines.filter { $0.hasPrefix(#"{"event":"remove""#) }
        #expect(removes.count == 1)
        #expect(removes.first?.hasSuffix(#""body":"c","reason":"cull"}"#) == true, "\(removes)")
        // The records after the removal list no body.
        #expect(lines.dropLast().last?.contains(#""s":[]"#) == true, "\(lines.dropLast().last ?? "")")
    }

    /// The shipped scenes of rules: bricks a ball removes and counts, a goal sensor counting balls.
    @Test(arguments: [
        ("breakout.json", #""counters":{"bricks":13,"paddle hits":1}}"#),
        ("goal-sensor.json", #""counters":{"goals":16}}"#),
    ])
    func aShippedRuleScenarioValidatesRunsAndCounts(_ name: String, counters: String) throws {
        let directory = try TemporaryDirectory()
        let file = PackageFiles.scenario(name)
        let validate = try TiltboxBinary.run(["validate", file], in: directory)
        #expect(validate.status == 0, "validate: \(validate.stderr)")
        let trace = directory.path("out.jsonl")
        // Metrics and the film strip follow the bodies the rules remove.
        let summary = directory.path("summary.json")
        let run = try TiltboxBinary.run(
            ["run", file, "--view", "none", "--trace", trace, "--summary-json", summary, "-q"], in: directory)
        #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: summary))
        let render = try TiltboxBinary.run(["render", trace, "--svg", directory.path("strip.svg")], in: directory)
        #expect(render.status == 0, "render exited \(render.status): \(render.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let end = try #require(lines.last)
        #expect(end.hasPrefix(#"{"end":"complete""#) && end.hasSuffix(counters), "\(end)")
        let removals = lines.filter { $0.hasPrefix(#"{"event":"remove""#) && $0.hasSuffix(#""reason":"rule"}"#) }
        #expect(removals.count == (name == "breakout.json" ? 13 : 16))
    }

    /// Chipmunk's debug build aborts on a joint with no dynamic end ("Unsolvable constraint") and on a
    /// dynamic body without mass: a rule's or the timeline's type change that would cause either is
    /// skipped with an event, and the run completes.
    @Test func aTypeChangeChipmunkCouldNotSimulateIsSkippedNotAborted() throws {
        let directory = try TemporaryDirectory()
        let pinned = try directory.write(
            "pinned.json",
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 0.5,
             "bodies": [{"id": "b", "position": [100, 10], "shapes": [{"circle": {"radius": 10}, "mass": 1, "collisionType": "ball"}]}],
             "joints": [{"pivot": {"a": "b", "b": "static", "anchor": [100, 10]}}],
             "rules": [{"on": "begin", "between": ["ball", "*"], "do": [{"set": {"body": "a", "type": "kinematic"}}]}]}
            """#)
        let crate = try directory.write(
            "crate.json",
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 1,
             "crates": [{"id": "c", "position": [100, 17], "collisionType": "crate"}],
             "timeline": [{"t": 0.5, "set": {"body": "c", "type": "dynamic"}}],
             "rules": [{"on": "begin", "between": ["crate", "*"], "do": [{"set": {"body": "a", "type": "static"}}]}]}
            """#)
        for (file, skipped) in [
            (pinned, #""action":"rules[0]","body":"b"}"#), (crate, #""action":"timeline[0]","body":"c"}"#),
        ] {
            let trace = directory.path("out.jsonl")
            let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
            #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
            let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix(#"{"event":"skipped""#) && $0.hasSuffix(skipped) }, "\(file)")
            #expect(lines.last?.hasPrefix(#"{"end":"complete""#) == true)
        }
    }
}
