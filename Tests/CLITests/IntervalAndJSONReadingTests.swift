import Foundation
import Testing

/// `render` and `tilt` take seconds as `--interval`; `--every`, their old name, still
/// works for one release with a warning. And the shared JSON reading layer: a misspelt key
/// in a keyframe file or a trace header, or a header field of the wrong type, is named with
/// its line, column and field path.
@Suite struct IntervalAndJSONReadingTests {
    static let warning = "tiltbox: warning: --every is deprecated for render/tilt; use --interval (seconds)"

    /// A two-crate trace over 1.5 s in four records.
    static let trace = """
        {"format":"tiltbox-trace/1","scenario":"hand","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a","c"],"world":{"size":[100,50]},"sizes":[[10,4],[6,6]]}
        {"step":0,"t":0,"g":[0,-10],"s":[[20,30,0,0,0,0],[70,10,0,1,0,0]]}
        {"step":1,"t":0.5,"g":[3,-4],"s":[[25,20,0.5,2,-3,1],[70,10,1,0,0,0.5]]}
        {"step":2,"t":1,"g":[-10,0],"s":[[30,2.5,1.5,0,0,0],[80,3,-2.5,0,0,0]]}
        {"step":3,"t":1.5,"g":[-10,0],"s":[[31,2.5,1.5,0,0,0],[81,3,-2.5,0,0,0]]}

        """

    @Test func tiltIntervalPrintsTheSameRowsAsTheOldEvery() throws {
        let directory = try TemporaryDirectory()
        let rock = PackageFiles.scenario("tilt/rock.json")
        let interval = try TiltboxBinary.run(["tilt", rock, "--interval", "1.5"], in: directory)
        let every = try TiltboxBinary.run(["tilt", rock, "--every", "1.5"], in: directory)
        #expect(interval.status == 0 && every.status == 0, "\(interval.stderr) \(every.stderr)")
        #expect(interval.stdoutLines.count == 7)
        #expect(interval.stdout == every.stdout)
        #expect(!interval.stderr.contains("deprecated"), "\(interval.stderr)")
        #expect(every.stderrLines.contains(Self.warning), "\(every.stderr)")
    }

    @Test func renderIntervalDrawsTheSamePanelsAsTheOldEvery() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("t.jsonl", Self.trace)
        let interval = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("a.svg"), "--interval", "0.5"], in: directory)
        let every = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("b.svg"), "--every", "0.5"], in: directory)
        #expect(interval.status == 0 && every.status == 0, "\(interval.stderr) \(every.stderr)")
        #expect(interval.stdout.contains("4 panels at t = 0, 0.5, 1, 1.5 s"), "\(interval.stdout)")
        let a = try Data(contentsOf: URL(fileURLWithPath: directory.path("a.svg")))
        let b = try Data(contentsOf: URL(fileURLWithPath: directory.path("b.svg")))
        #expect(!a.isEmpty && a == b)
        #expect(!interval.stderr.contains("deprecated"), "\(interval.stderr)")
        #expect(every.stderrLines.contains(Self.warning), "\(every.stderr)")
    }

    @Test func intervalAndEveryTogetherAreAUsageError() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(["tilt", "t.csv", "--interval", "1", "--every", "1"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("give only --interval"), "\(result.stderr)")
        let negative = try TiltboxBinary.run(
            ["render", "t.jsonl", "--svg", "o.svg", "--interval", "-1"], in: directory)
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--interval must be a number of seconds > 0"), "\(negative.stderr)")
    }

    @Test func runEveryStillCountsSteps() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("r.jsonl")
        let result = try TiltboxBinary.run(
            ["run", "--duration", "1", "--every", "30", "--trace", trace, "--quiet"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("deprecated"))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"every\":30") == true)
    }

    @Test func aMisspeltKeyframeKeyGetsDidYouMeanWithLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let third = #"              {"t": 1, "gravty": [1, 0]}]}"#
        let file = try directory.write(
            "wave.json",
            #"{"format": "tiltbox-tilt/1","# + "\n"
                + #" "keyframes": [{"t": 0, "gravity": [0, -1]},"# + "\n" + third + "\n")
        let column = try #require(third.range(of: #""gravty""#)).lowerBound.utf16Offset(in: third) + 1
        let result = try TiltboxBinary.run(["tilt", file], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderrLines.first
                == "\(file):3:\(column): keyframes[1].gravty: unknown key \"gravty\" (did you mean \"gravity\"?)",
            "\(result.stderr)")
    }

    @Test func aMisspeltTraceHeaderKeyGetsDidYouMeanWithLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let text = Self.trace.replacingOccurrences(of: #""sizes":"#, with: #""sizse":"#)
        let trace = try directory.write("t.jsonl", text)
        let column = try #require(text.range(of: #""sizse""#)).lowerBound.utf16Offset(in: text) + 1
        let result = try TiltboxBinary.run(["render", trace, "--svg", directory.path("o.svg")], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderrLines.first == "\(trace):1:\(column): sizse: unknown key \"sizse\" (did you mean \"sizes\"?)",
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("o.svg")))
    }

    @Test func aTraceHeaderFieldOfTheWrongTypeNamesItsPathLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let text = Self.trace.replacingOccurrences(
            of: #""sizes":"#, with: #""source":{"scenario":"s.json","g":"heavy"},"sizes":"#)
        let trace = try directory.write("t.jsonl", text)
        let column = try #require(text.range(of: #""heavy""#)).lowerBound.utf16Offset(in: text) + 1
        let result = try TiltboxBinary.run(["diff", trace, trace], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderrLines.first == "\(trace):1:\(column): source.g: expected a positive number, got a string",
            "\(result.stderr)")
    }
}
