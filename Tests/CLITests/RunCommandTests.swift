import Foundation
import Testing

/// `tiltbox run`, `tiltbox validate` and usage errors, through the built binary.
@Suite struct RunCommandTests {
    @Test func traceToStandardOutputIsPureJSONLines() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--trace", "-"], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("Initializing cpSpace"), "Chipmunk's banner reached stdout")
        #expect(!result.stdout.contains("scenario:"), "the summary reached stdout")
        #expect(result.stdout.hasSuffix("\n"), "stdout does not end in a whole line")
        let lines = result.stdoutLines
        let objects = JSONLines.objects(result.stdout, source: "stdout")
        try #require(objects.count == lines.count && lines.count >= 3, "\(lines.count) lines, \(objects.count) parse")
        #expect(objects.first?["format"] as? String == "tiltbox-trace/1", "first line: \(lines[0].prefix(120))")
        let records = objects.dropFirst().dropLast()
        #expect(records.allSatisfy { $0["step"] != nil && $0["s"] != nil }, "a middle line is not a record")
        // free-fall: 2 s at 120 Hz, every step recorded, plus step 0.
        #expect(records.count == 241)
        #expect(JSONLines.number(records.last?["step"]) == 240)
        let end = try #require(objects.last)
        #expect(end["end"] as? String == "complete", "last line: \(lines.last ?? "")")
        #expect(JSONLines.number(end["steps"]) == 240)
        #expect((end["digest"] as? String)?.hasPrefix("fnv1a64:") == true)
    }

    @Test func summaryWithoutTraceReportsStepsTimeAndDigest() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("bounce.json")
        let summary = try TiltboxBinary.run(["run", scenario], in: directory)
        #expect(summary.status == 0, "stderr: \(summary.stderr)")
        let lines = summary.stdoutLines
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ":") }.map {
                $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            }
        }
        #expect(value("steps")?.hasPrefix("720 of 720") == true, "summary: \(summary.stdout)")
        #expect(value("simulated time") == "6 s", "summary: \(summary.stdout)")
        let digest = try #require(value("digest"), "no digest line in: \(summary.stdout)")
        #expect(digest.hasPrefix("fnv1a64:") && digest.count == "fnv1a64:".count + 16, "digest: \(digest)")

        let trace = directory.path("bounce.jsonl")
        let traced = try TiltboxBinary.run(["run", scenario, "--trace", trace], in: directory)
        #expect(traced.status == 0, "stderr: \(traced.stderr)")
        let end = try #require(try JSONLines.objects(file: trace).last)
        #expect(end["end"] as? String == "complete")
        #expect(end["digest"] as? String == digest, "summary digest \(digest), trace end line \(end)")
        #expect(JSONLines.number(end["steps"]) == 720)
    }

    @Test func validateAcceptsEveryShippedScenario() throws {
        let directory = try TemporaryDirectory()
        let scenarios = PackageFiles.shippedScenarios
        try #require(scenarios.count >= 6, "found only \(scenarios)")
        let result = try TiltboxBinary.run(["validate"] + scenarios, in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count == scenarios.count, "stdout: \(result.stdout)")
        for (line, file) in zip(lines, scenarios) {
            #expect(line.hasPrefix("ok: \(file): "), "line for \(file): \(line)")
        }
    }

    /// `validate SCENARIO --orientation O` names the orientation the tilt file is read in:
    /// the option, else the scenario's (`book.json` says landscapeRight).
    @Test func validateNamesTheOrientationGivenOverTheScenarios() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("book.json")
        let plain = try TiltboxBinary.run(["validate", scenario], in: directory)
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(plain.stdout.hasSuffix(", landscapeRight\n"), "stdout: \(plain.stdout)")
        let given = try TiltboxBinary.run(["validate", scenario, "--orientation", "portraitUpsideDown"], in: directory)
        #expect(given.status == 0, "stderr: \(given.stderr)")
        #expect(given.stdout.hasSuffix(", portraitUpsideDown\n"), "stdout: \(given.stdout)")
    }

    @Test func toolAloneRunsTheBuiltInDefaultScenario() throws {
        let directory = try TemporaryDirectory()
        // stdout is a file here, not a terminal: a summary, not the live view.
        let result = try TiltboxBinary.run([], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutLines.first?.contains("built-in default") == true, "stdout: \(result.stdout)")
        #expect(result.stdout.contains("(book)"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("steps:          1200 of 1200"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("digest:         fnv1a64:"), "stdout: \(result.stdout)")
    }

    static let usageErrors: [[String]] = [
        ["run", "--no-such-option"],
        ["--no-such-option"],
        ["run", "--every", "0"],
        ["run", "--every", "ten"],
        ["run", "--duration", "-1"],
        ["run", "--frames", "steady:0"],
        ["run", "--frames", "wobbly:60"],
        ["diff", "only-one.jsonl"],
        ["verify", "scenario.json"],
        ["validate"],
        ["no-such-command", "x", "y"],
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(arguments, in: directory)
        #expect(
            result.status == 2,
            "tiltbox \(arguments.joined(separator: " ")) exited \(result.status); stderr: \(result.stderr)")
        #expect(!result.stderr.isEmpty, "no message on stderr")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
    }
}
