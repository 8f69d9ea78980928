import Foundation
import Testing

/// Every reader stays bounded: a trace header's ignored keys cost no memory and its nesting
/// is capped; `batch-merge` refuses a summary over its cap at once and reads the jobs of one
/// under it one at a time, each within a bound of values. Memory is the child's measured peak.
@Suite struct ReaderBoundTests {
    /// `units` copies of `[]`, comma-separated: 3 bytes a JSON value.
    static func emptyArrays(_ units: Int) -> String {
        "[" + Array(repeating: "[]", count: units).joined(separator: ",") + "]"
    }

    @Test func anIgnoredHeaderKeyOfMillionsOfEmptyArraysCostsNoMemory() throws {
        let directory = try TemporaryDirectory()
        let golden = try OutputFailureTests.trace(directory)
        var lines = try String(contentsOfFile: golden, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        // 8 MiB of `[],` under a key the reader ignores: 2.8 million values, about 300 MiB as a tree.
        lines[0] = String(lines[0].dropLast()) + ",\"ignored\":" + Self.emptyArrays(8 << 20 / 3) + "}"
        let padded = try directory.write("padded.jsonl", lines.joined(separator: "\n"))
        for arguments in [["diff", padded, golden], ["render", padded, "--svg", directory.path("f.svg")]] {
            let run = try MeasuredRun.run(arguments, in: directory)
            #expect(run.status == 0, "\(arguments): \(run.summary)")
            #expect(run.peakMiB < MeasuredRun.bound(100), "\(arguments): \(run.summary)")
        }
    }

    @Test func aHeaderNestedDeeperThanAHeaderCanBeIsRefused() throws {
        let directory = try TemporaryDirectory()
        let golden = try OutputFailureTests.trace(directory)
        var lines = try String(contentsOfFile: golden, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        lines[0] =
            String(lines[0].dropLast()) + ",\"ignored\":" + String(repeating: "[", count: 40)
            + String(repeating: "]", count: 40) + "}"
        let deep = try directory.write("deep.jsonl", lines.joined(separator: "\n"))
        let run = try TiltboxBinary.run(["diff", deep, golden], in: directory)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(
            run.stderrLines.count == 1 && run.stderr.hasPrefix(deep + ":1:")
                && run.stderr.contains("nesting deeper than 32 levels"),
            "\(run.stderr)")
    }

    /// A one-shard summary of one job whose `parameters` hold `parameters` (JSON text).
    static func summary(parameters: String, extra: String = "") -> String {
        #"{"format":"tiltbox-batch-result/1","tiltbox":"0.13.0","manifestSHA256":"ab","shard":[0,1],"jobCount":1,"#
            + extra + #""jobs":["#
            + "\n"
            + #"{"index":0,"name":"x","status":"passed","exit":0,"signal":null,"wallSeconds":1,"steps":1,"digest":null,"#
            + #""firstDivergence":null,"message":null,"metrics":null,"parameters":"# + parameters + "}]}\n"
    }

    @Test func aSummaryJobOfMillionsOfValuesIsRefusedInBoundedMemory() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "s.json", Self.summary(parameters: #"{"p":"# + Self.emptyArrays(8 << 20 / 3) + "}"))
        let run = try MeasuredRun.run(["batch-merge", path], in: directory)
        #expect(run.status == 2, "\(run.summary)")
        #expect(run.stderr.hasPrefix(path + ":2:") && run.stderr.contains("more than 100000 values"), "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(100), "\(run.summary)")
    }

    @Test func anUnknownSummaryKeyOfMillionsOfValuesCostsNoMemory() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "s.json", Self.summary(parameters: "{}", extra: #""extra":"# + Self.emptyArrays(8 << 20 / 3) + ","))
        let run = try MeasuredRun.run(["batch-merge", path, "--json", directory.path("merged.json")], in: directory)
        #expect(run.status == 0, "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(100), "\(run.summary)")
    }

    @Test func aSummaryOverTheCapIsRefusedBeforeItIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("huge.json")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 256 << 20 + 1) // sparse: no disk, no time
        try handle.close()
        let run = try MeasuredRun.run(["batch-merge", path], in: directory)
        #expect(run.status == 2, "\(run.summary)")
        #expect(
            run.stderr
                == "\(path): file is \(256 << 20 + 1) bytes, more than the limit of \(256 << 20) for a batch summary\n",
            "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(60), "\(run.summary)")
    }
}
