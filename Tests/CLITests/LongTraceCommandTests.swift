import Foundation
import Testing

/// What `run` writes, every command reads (docs/formats.md §3 and §8): thousands of spawns and
/// removals between two records, and an end line with many long counters. A crash (a signal, a
/// Swift trap) fails `TiltboxBinary.run` itself.
@Suite struct LongTraceCommandTests {
    /// 5 000 balls, one spawned at each step (fast enough to clear the one before) and removed at
    /// the next: recorded with `--every 100000`, 9 999 event lines in a row between the first
    /// record and the last. (Spawned all at once they would cost the run the square of their
    /// number: the world rebuilds its state readers at each body added.)
    static let manySpawns: String = {
        var timeline = [
            #"{"t": 0, "every": 0.01, "count": 5000, "spawn": {"id": "b", "position": [50, 50], "#
                + #""velocity": [0, 1000], "shapes": [{"circle": {"radius": 2}, "mass": 1}]}}"#
        ]
        for k in 0..<5000 { timeline.append(#"{"t": \#(Double(k + 1) / 100), "remove": "b#\#(k)"}"#) }
        return #"{"format": "tiltbox-scenario/1", "name": "many", "world": {"size": [100, 100], "gravity": [0, 0]}, "#
            + #""timestep": {"hz": 100}, "duration": 50.01, "timeline": [\#(timeline.joined(separator: ",\n"))]}"#
    }()

    /// Runs `arguments` and requires exit 0.
    static func expectSuccess(
        _ arguments: [String], in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try TiltboxBinary.run(arguments, in: directory)
        #expect(
            result.status == 0, "tiltbox \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
    }

    /// Before: `verify` and `render` overflowed the stack reading the events (the reader took each
    /// event line by calling itself), and `diff --html` trapped on an index out of range (it read
    /// every body of the run from records that list the bodies present).
    @Test func verifyRenderAndTheDiffPageReadARunOfFiveThousandSpawnsAndRemovals() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write("many.json", Self.manySpawns)
        let trace = directory.path("many.jsonl")
        try Self.expectSuccess(
            ["run", scenario, "--trace", trace, "--every", "100000", "--view", "none"], in: directory)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 1 + 1 + 9_999 + 1 + 1, "header, spawn, record 0, 9 999 events, record, end")
        try Self.expectSuccess(["verify", "--against", trace], in: directory)
        try Self.expectSuccess(
            ["render", trace, "--svg", directory.path("many.svg"), "--html", directory.path("many.html")],
            in: directory)
        try Self.expectSuccess(["diff", trace, trace, "--html", directory.path("diff.html")], in: directory)
    }

    /// A ball that touches the floor, and a rule counting it under `names` counters of `length`
    /// characters each.
    static func counters(names: Int, length: Int) -> String {
        let counts = (0..<names).map { #"{"count": "\#(String(repeating: "c", count: length))\#($0)"}"# }
        return #"{"format": "tiltbox-scenario/1", "name": "counters", "world": {"size": [100, 100]}, "#
            + #""timestep": {"hz": 100}, "duration": 0.5, "bodies": [{"id": "ball", "position": [50, 6], "#
            + #""shapes": [{"circle": {"radius": 4}, "mass": 1, "collisionType": "ball"}]}], "#
            + #""rules": [{"on": "begin", "between": ["ball", "*"], "do": [\#(counts.joined(separator: ","))]}]}"#
    }

    /// Before: `run` wrote the end line and `diff`, `verify` and `render` refused it ("line
    /// longer than 4406 bytes"), exit 2 on the run's own trace.
    @Test func everyReaderReadsAnEndLineOfSixtyFourLongCounters() throws {
        let directory = try TemporaryDirectory()
        // 64 counters of 12 000 characters: an end line of 770 kB, past a record's bound of 4 KiB and a little.
        let scenario = try directory.write("counters.json", Self.counters(names: 64, length: 12_000))
        let trace = directory.path("counters.jsonl")
        try Self.expectSuccess(["run", scenario, "--trace", trace, "--view", "none"], in: directory)
        let end = try #require(try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").last)
        #expect(end.utf8.count > 700_000 && end.contains("\"counters\""))
        try Self.expectSuccess(["diff", trace, trace], in: directory)
        try Self.expectSuccess(["verify", "--against", trace], in: directory)
        try Self.expectSuccess(["render", trace, "--svg", directory.path("counters.svg")], in: directory)
    }

    /// Counters whose names pass the end line's bound are refused where they are declared, by
    /// `validate` and `run` alike, before anything runs: 62 names of 16 000 characters.
    @Test func countersTooLongForTheEndLineAreRefusedAtLoad() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write("too-many.json", Self.counters(names: 62, length: 16_000))
        for command in ["validate", "run"] {
            let result = try TiltboxBinary.run([command, scenario], in: directory)
            #expect(result.status == 2, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("rules[0].do[61].count"))
            #expect(result.stderr.contains("end line"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("too-many.jsonl")))
    }
}
