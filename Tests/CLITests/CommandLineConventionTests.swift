import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The conventions a shell user expects, through the built binary: negative numbers reach
/// their real check, a mistyped command is named as one, options that would do nothing are
/// refused, `--quiet`, `--summary-json`, numbers rounded for people, help text without
/// hard breaks inside sentences, and `make install`.
@Suite struct CommandLineConventionTests {
    // MARK: - Negative numbers

    /// A negative value for every numeric option of every subcommand, and the words its real check uses.
    static let negativeValues: [(arguments: [String], message: String)] = [
        (["run", "--every", "-1"], "--every must be a whole number ≥ 1"),
        (["run", "--duration", "-1"], "--duration must be a number of seconds"),
        (["run", PackageFiles.scenario("book.json"), "--g", "-5"], "--g must be a number in (0,"),
        (["run", "--fps", "-1"], "--fps must be a number in (0, 1000]"),
        (["diff", "a.jsonl", "b.jsonl", "--tolerance", "-1"], "--tolerance must be a finite number ≥ 0"),
        (["verify", "s.json", "--against", "t.jsonl", "--tolerance", "-1"], "--tolerance must be a finite number ≥ 0"),
        (["tilt", "t.csv", "--every", "-1"], "--every must be a number of seconds > 0"),
        (["tilt", "t.csv", "--interval", "-1"], "--interval must be a number of seconds > 0"),
        (["tilt", "t.csv", "--g", "-5"], "--g must be a number in (0,"),
        (["record", "s.json", "--out", "o.csv", "--g", "-5"], "--g must be a number in (0,"),
        (["record", "s.json", "--out", "o.csv", "--fps", "-1"], "--fps must be a number in (0, 1000]"),
        (["record", "s.json", "--out", "o.csv", "--duration", "-2"], "--duration must be a number of seconds"),
        (["render", "t.jsonl", "--svg", "o.svg", "--every", "-1"], "--every must be a number of seconds > 0"),
        (["render", "t.jsonl", "--svg", "o.svg", "--columns", "-1"], "--columns must be a whole number from 1"),
        (["render", "t.jsonl", "--svg", "o.svg", "--panel-width", "-1"], "--panel-width must be a number of pixels"),
        (
            ["render", "t.jsonl", "--html", "o.html", "--max-body-frames", "-1"],
            "--max-body-frames must be a whole number ≥ 1"
        ),
    ]

    @Test(arguments: negativeValues)
    func negativeNumbersReachTheRealCheck(_ example: (arguments: [String], message: String)) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(example.arguments, in: directory)
        let command = example.arguments.joined(separator: " ")
        #expect(result.status == 2, "tiltbox \(command) exited \(result.status): \(result.stderr)")
        #expect(result.stderr.contains(example.message), "tiltbox \(command): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "tiltbox \(command): \(result.stderr)")
        #expect(result.stderrLines.count == 2, "one message and one hint: \(result.stderr)")
    }

    @Test func aNegativeTimeReachesRenderAsATime() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("free-fall.jsonl")
        #expect(
            try TiltboxBinary.run(["run", PackageFiles.scenario("free-fall.json"), "--trace", trace], in: directory)
                .status == 0)
        let result = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("o.svg"), "--at", "-1,1"], in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        #expect(result.stderr.contains("-1"), "the message names the time: \(result.stderr)")
    }

    // MARK: - Commands

    @Test func aMistypedCommandIsNamedWithTheNearestOne() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(["valdate", "Scenarios/book.json"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderrLines == [
                "tiltbox: unknown command 'valdate' (did you mean 'validate'?)",
                "Run 'tiltbox help' for the commands.",
            ], "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let far = try TiltboxBinary.run(["frobnicate"], in: directory)
        #expect(far.status == 2)
        #expect(
            far.stderrLines.first?.hasPrefix(
                "tiltbox: unknown command 'frobnicate' (commands: run, record, diff, verify, validate, tilt, render, curves, batch, batch-merge, test, help"
            ) == true,
            "\(far.stderr)")
    }

    @Test func aMissingScenarioPathIsStillAFileError() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run([directory.path("nothing-here.json")], in: directory)
        #expect(result.status == 2)
        #expect(!result.stderr.contains("unknown command"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing-here.json"), "\(result.stderr)")
    }

    @Test func versionPrintsTheLibraryVersion() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(["--version"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == [TiltboxVersion.current], "\(result.stdout)")
    }

    /// A usage error: one line saying what is wrong and one hint, not a usage block and two hints.
    @Test(arguments: [
        ["run", "--no-such-option"], ["run", "--every", "ten"], ["diff", "only-one.jsonl"], ["validate"],
    ])
    func aUsageErrorGivesOneMessageAndOneHint(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(arguments, in: directory)
        #expect(result.status == 2)
        let lines = result.stderrLines
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("tiltbox: ") == true, "\(result.stderr)")
        #expect(lines.last == "Run 'tiltbox \(arguments[0]) --help' for usage.", "\(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
    }

    // MARK: - Options that would have no effect

    static let ineffectiveOptions: [(arguments: [String], message: String)] = [
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--orientation", "landscapeLeft"],
            "--orientation has no effect without a tilt input"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--interpolate", "linear"],
            "--interpolate has no effect without a tilt input"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--convention", "ios"],
            "--convention has no effect without a tilt input"
        ),
        (["run", PackageFiles.scenario("free-fall.json"), "--g", "500"], "--g has no effect without a tilt input"),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--fps", "30"],
            "--fps sets the frame rate of the live view or of --realtime"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--fps", "30", "--trace", "-"],
            "--fps sets the frame rate of the live view or of --realtime"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--frames", "steady:30", "--realtime"],
            "--frames has no effect with --realtime"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--interactive", "--view", "none"],
            "--interactive steers gravity in the live view, and --view none has none"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--interactive"],
            "--interactive steers gravity in the live view, and this run is headless"
        ),
        (
            ["run", PackageFiles.scenario("free-fall.json"), "--exit-at-end", "--view", "none"],
            "--exit-at-end closes the live view"
        ),
    ]

    @Test(arguments: ineffectiveOptions)
    func anOptionThatWouldHaveNoEffectIsRefused(_ example: (arguments: [String], message: String)) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(example.arguments, in: directory)
        let command = example.arguments.joined(separator: " ")
        #expect(result.status == 2, "tiltbox \(command) exited \(result.status): \(result.stderr)")
        #expect(result.stderr.contains(example.message), "tiltbox \(command): \(result.stderr)")
        #expect(result.stdout.isEmpty, "the run started: \(result.stdout)")
    }

    static let effectiveOptions: [[String]] = [
        // book.json has a tilt key: the tilt options shape it.
        [
            "run", PackageFiles.scenario("book.json"), "--orientation", "portrait", "--interpolate", "linear", "--g",
            "500", "--duration", "0.1",
        ],
        [
            "run", PackageFiles.scenario("free-fall.json"), "--tilt", PackageFiles.scenario("tilt/rock.json"),
            "--orientation", "landscapeLeft", "--duration", "0.1",
        ],
        ["run", PackageFiles.scenario("free-fall.json"), "--fps", "200", "--realtime", "--duration", "0.1"],
        ["run", PackageFiles.scenario("free-fall.json"), "--frames", "steady:30", "--duration", "0.1"],
    ]

    @Test(arguments: effectiveOptions)
    func anOptionThatHasAnEffectIsAccepted(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(arguments, in: directory)
        #expect(
            result.status == 0, "tiltbox \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
    }

    // MARK: - Summaries

    @Test func quietPrintsNoSummary() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("free-fall.json")
        let plain = try TiltboxBinary.run(["run", scenario, "--quiet"], in: directory)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.isEmpty && plain.stderr.isEmpty, "stdout: \(plain.stdout) stderr: \(plain.stderr)")
        let piped = try TiltboxBinary.run(["run", scenario, "--trace", "-", "-q"], in: directory)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.isEmpty, "stderr: \(piped.stderr)")
        #expect(
            piped.stdoutLines.count == 243, "the trace still goes to standard output: \(piped.stdoutLines.count) lines")
    }

    @Test func summaryJSONHoldsTheRunFiguresExactly() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("bounce.jsonl"), summary = directory.path("summary.json")
        let scenario = PackageFiles.scenario("bounce.json")
        let result = try TiltboxBinary.run(
            ["run", scenario, "--trace", trace, "--summary-json", summary, "--quiet"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let end = try #require(try JSONLines.objects(file: trace).last)
        #expect(object["format"] as? String == "tiltbox-summary/1")
        #expect(object["tiltbox"] as? String == TiltboxVersion.current)
        #expect(object["scenario"] as? String == scenario)
        #expect(object["end"] as? String == "complete")
        #expect(JSONLines.number(object["steps"]) == 720 && JSONLines.number(object["totalSteps"]) == 720)
        #expect(JSONLines.number(object["simTime"]) == JSONLines.number(end["simTime"]))
        #expect(JSONLines.number(object["droppedTime"]) == 0)
        #expect(object["digest"] as? String == end["digest"] as? String, "\(object) vs \(end)")
        #expect(JSONLines.number(object["records"]) == 721)
        #expect((JSONLines.number(object["wallSeconds"]) ?? -1) > 0)
        #expect(object["trace"] as? String == trace)
        #expect(JSONLines.number(object["traceBytes"]) == Double(InterruptTests.fileSize(trace)))
    }

    @Test func humanOutputIsRoundedForPeople() throws {
        let directory = try TemporaryDirectory()
        // The stall drops 0.43333… s of simulated time: the summary shows 0.433.
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("book.json"), "--frames", "stall:60:1:0.5", "--duration", "2"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.contains("dropped time:   0.433 s"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("simulated time: 2 s"), "\(run.stdout)")
        let validate = try TiltboxBinary.run(
            ["validate", PackageFiles.scenario("free-fall.json"), PackageFiles.scenario("crate-stack.json")],
            in: directory)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdoutLines.first?.contains(
                "scenario 'free-fall', 1 crate, 4 static segments, 240 steps at 120 Hz") == true, "\(validate.stdout)")
        #expect(validate.stdoutLines.last?.contains(", 10 crates, ") == true, "\(validate.stdout)")
        #expect(!validate.stdout.contains("0.0083333"), "\(validate.stdout)")
    }

    // MARK: - Help and installation

    /// With a very wide screen, ArgumentParser wraps nothing: a line that ends in a letter or
    /// a comma is a sentence broken by hand.
    @Test(arguments: ["", "run", "record", "diff", "verify", "validate", "tilt", "render"])
    func helpTextHasNoHardBreaksInsideSentences(_ command: String) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(
            ["help"] + (command.isEmpty ? [] : [command]), in: directory,
            environment: ["COLUMNS": "10000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count > 3, "\(result.stdout)")
        for line in result.stdoutLines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let last = trimmed.last else { continue }
            #expect(!(last.isLetter || last == ","), "tiltbox help \(command): a line breaks mid-sentence: \(trimmed)")
        }
    }

    @Test func makeInstallPutsTheBinaryAndCompletionsUnderThePrefix() throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.path("prefix")
        let binary = try TiltboxBinary.url().path
        let log = directory.path("make.log")
        let status = try Self.runMake(
            ["-C", PackageFiles.root.path, "-s", "install", "PREFIX=\(prefix)", "BIN=\(binary)"], log: log)
        #expect(status == 0, "make install: \((try? JSONLines.text(file: log)) ?? "")")
        let installed = [
            "bin/tiltbox", "share/bash-completion/completions/tiltbox",
            "share/zsh/site-functions/_tiltbox", "share/fish/vendor_completions.d/tiltbox.fish",
        ]
        for file in installed {
            #expect(InterruptTests.fileSize("\(prefix)/\(file)") > 0, "\(file) missing or empty")
        }
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/tiltbox"))
        let bash = (try? JSONLines.text(file: "\(prefix)/share/bash-completion/completions/tiltbox")) ?? ""
        #expect(bash.contains("validate") && bash.contains("--summary-json"), "the bash completion lacks the commands")
        // The installed binary runs.
        let out = directory.url.appendingPathComponent("version.out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(prefix)/bin/tiltbox")
        process.arguments = ["--version"]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect((try JSONLines.text(file: out.path)) == TiltboxVersion.current + "\n")
    }

    /// Runs `make` with output to `log`; returns its exit status.
    static func runMake(_ arguments: [String], log: String) throws -> Int32 {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["make"] + arguments
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
