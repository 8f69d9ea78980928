import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output that cannot be written never traps: a closed pipe ends every printing command
/// quietly with status 141 (what a shell shows for a tool killed by SIGPIPE), and a full
/// device, on standard output or on standard error, ends it with status 1 and one message.
@Suite struct OutputFailureTests {
    /// A printing command, and the files it needs made first in its folder.
    struct PrintingCommand: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: @Sendable (TemporaryDirectory) throws -> [String]
        var testDescription: String { name }
    }

    /// A small trace in `directory`, for the commands that read one.
    static func trace(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("small.jsonl")
        let run = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5",
                "--trace", path, "--view", "none",
            ], in: directory)
        try #require(run.status == 0, "making the trace: \(run.stderr)")
        return path
    }

    static let printingCommands: [PrintingCommand] = [
        PrintingCommand(name: "tilt") { _ in ["tilt", PackageFiles.scenario("tilt/book-landscape.csv")] },
        PrintingCommand(name: "run (summary)") { _ in
            ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--view", "none"]
        },
        PrintingCommand(name: "run --trace -") { _ in
            ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--trace", "-"]
        },
        PrintingCommand(name: "run --html") { d in
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--view", "none", "--html",
                d.path("page.html"),
            ]
        },
        PrintingCommand(name: "tiltbox (built-in default)") { _ in [] },
        PrintingCommand(name: "validate") { _ in
            ["validate", PackageFiles.scenario("crate-stack.json"), PackageFiles.scenario("tilt/rock.json")]
        },
        PrintingCommand(name: "diff") { d in
            let t = try trace(d); return ["diff", t, t]
        },
        PrintingCommand(name: "verify") { d in
            ["verify", PackageFiles.scenario("crate-stack.json"), "--against", try trace(d)]
        },
        PrintingCommand(name: "render --svg") { d in ["render", try trace(d), "--svg", d.path("strip.svg")] },
        PrintingCommand(name: "render --html") { d in ["render", try trace(d), "--html", d.path("page.html")] },
        PrintingCommand(name: "help") { _ in ["help"] },
        PrintingCommand(name: "help run") { _ in ["help", "run"] },
        PrintingCommand(name: "--help") { _ in ["--help"] },
        PrintingCommand(name: "run --help") { _ in ["run", "--help"] },
    ]

    @Test(arguments: printingCommands)
    func aClosedPipeOnStandardOutputEndsQuietlyWith141(_ command: PrintingCommand) throws {
        let directory = try TemporaryDirectory()
        let arguments = try command.arguments(directory)
        let run = try TiltboxBinary.run(arguments, in: directory, stdoutTo: .closedPipe)
        #expect(
            run.status == 141,
            "tiltbox \(arguments.joined(separator: " ")): status \(run.status), stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty, "nothing on standard error: \(run.stderr)")
    }

    @Test(arguments: printingCommands)
    func aFullDeviceOnStandardOutputExitsOneWithOneMessage(_ command: PrintingCommand) throws {
        let directory = try TemporaryDirectory()
        let arguments = try command.arguments(directory)
        let run = try TiltboxBinary.run(arguments, in: directory, stdoutTo: .full)
        #expect(
            run.status == 1, "tiltbox \(arguments.joined(separator: " ")): status \(run.status), stderr: \(run.stderr)")
        #expect(
            run.stderrLines.count == 1 && run.stderr.contains("No space left on device"),
            "one message naming the reason: \(run.stderr)")
        #expect(run.stderr.contains("standard output"), "names what could not be written: \(run.stderr)")
    }

    @Test func aFullDeviceOnStandardErrorExitsOneWhenAMessageIsLost() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("bad.json", #"{"format": "tiltbox-scenario/1"}"#)
        // A bad file's message cannot reach the user: the status says a write failed.
        let validate = try TiltboxBinary.run(["validate", bad], in: directory, stderrTo: .full)
        #expect(validate.status == 1, "status \(validate.status)")

        // --trace - puts the summary on standard error; the trace on standard output is whole.
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--trace", "-"],
            in: directory, stderrTo: .full)
        #expect(run.status == 1, "status \(run.status)")
        let objects = JSONLines.objects(run.stdout, source: "stdout")
        #expect(objects.last?["end"] as? String == "complete", "the trace was written whole before the summary failed")
    }

    @Test func aClosedPipeOnStandardErrorEndsQuietlyWith141() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("bad.json", #"{"format": "tiltbox-scenario/1"}"#)
        let validate = try TiltboxBinary.run(["validate", bad], in: directory, stderrTo: .closedPipe)
        #expect(validate.status == 141, "status \(validate.status)")
        #expect(validate.stdout.isEmpty)
        // record, away from a terminal, can only say so on standard error.
        let record = try TiltboxBinary.run(
            ["record", PackageFiles.scenario("crate-stack.json"), "--out", directory.path("r.csv")],
            in: directory, stderrTo: .closedPipe)
        #expect(record.status == 141, "status \(record.status)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("r.csv")))
    }

    @Test func aTraceOnAClosedPipeMidRunEndsQuietlyWith141() throws {
        // Large enough that the writer meets the closed pipe mid-run, not only at its end.
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("pile-100.json"), "--duration", "2", "--trace", "-"],
            in: directory, stdoutTo: .closedPipe)
        #expect(run.status == 141, "status \(run.status), stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
