import Foundation
import Testing

/// A trace holds finite numbers and no byte order mark: a value such as `1e400` (read as
/// infinity) or a BOM anywhere is bad input for every command that reads traces (exit 2,
/// the file, line and field named), not a picture drawn at 0 or a difference of infinity.
@Suite struct TraceNumberTests {
    /// A short trace of crate-stack and its lines.
    static func trace(_ directory: TemporaryDirectory) throws -> (path: String, lines: [String]) {
        let path = directory.path("base.jsonl")
        let run = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.1",
                "--trace", path, "--view", "none",
            ], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        return (path, try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init))
    }

    /// The commands that read `bad`: diff (both sides), verify, render.
    static func readers(_ bad: String, _ good: String, _ directory: TemporaryDirectory) -> [[String]] {
        [
            ["diff", bad, good], ["diff", good, bad],
            ["verify", PackageFiles.scenario("crate-stack.json"), "--against", bad],
            ["render", bad, "--svg", directory.path("out.svg")],
        ]
    }

    static func expectRefused(
        _ bad: String, _ good: String, in directory: TemporaryDirectory, saying expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for arguments in readers(bad, good, directory) {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(
                result.status == 2, "\(arguments): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func anInfiniteStateValueIsRefusedWithItsLineAndField() throws {
        let directory = try TemporaryDirectory()
        let (good, lines) = try Self.trace(directory)
        var edited = lines
        let range = try #require(edited[3].range(of: #""s":\[\[[-0-9.e]+"#, options: .regularExpression))
        edited[3].replaceSubrange(range, with: "\"s\":[[1e400")
        let bad = try directory.write("bad.jsonl", edited.joined(separator: "\n") + "\n")
        try Self.expectRefused(bad, good, in: directory, saying: "bad.jsonl:4:")
        try Self.expectRefused(bad, good, in: directory, saying: "s[0][0]: must be a finite number")
    }

    @Test func anInfiniteWorldSizeInTheHeaderIsRefused() throws {
        let directory = try TemporaryDirectory()
        let (good, lines) = try Self.trace(directory)
        var edited = lines
        try #require(edited[0].contains(#""world":{"size":[480,320]}"#))
        edited[0] = edited[0].replacingOccurrences(
            of: #""world":{"size":[480,320]}"#, with: #""world":{"size":[480,1e400]}"#)
        let bad = try directory.write("bad.jsonl", edited.joined(separator: "\n") + "\n")
        try Self.expectRefused(bad, good, in: directory, saying: "bad.jsonl:1:")
        try Self.expectRefused(bad, good, in: directory, saying: "world.size[1]: must be a finite number")
    }

    @Test(arguments: [0, 2])
    func aByteOrderMarkAtTheStartOfAnyLineIsRefused(_ line: Int) throws {
        let directory = try TemporaryDirectory()
        let (good, lines) = try Self.trace(directory)
        var edited = lines
        edited[line] = "\u{FEFF}" + edited[line]
        let bad = try directory.write("bad.jsonl", edited.joined(separator: "\n") + "\n")
        try Self.expectRefused(bad, good, in: directory, saying: "bad.jsonl:\(line + 1):1: a byte order mark")
    }
}
