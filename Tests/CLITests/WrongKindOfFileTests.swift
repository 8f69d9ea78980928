import Foundation
import Testing

/// A file of the wrong kind is named as such, and an output folder that does not exist
/// is bad input (exit 2, the path named), through the built binary.
@Suite struct WrongKindOfFileTests {
    private func trace(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("stack.jsonl")
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.1", "--trace", path], in: directory)
        try #require(run.status == 0, "run stderr: \(run.stderr)")
        return path
    }

    @Test func aTraceGivenAsAScenarioIsNamedATrace() throws {
        let directory = try TemporaryDirectory()
        let trace = try trace(in: directory)
        for arguments in [["run", trace], ["verify", trace, "--against", trace]] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments): stdout: \(result.stdout) stderr: \(result.stderr)")
            #expect(
                result.stderrLines == ["\(trace): this is a Tiltbox trace, not a scenario"],
                "\(arguments): \(result.stderr)")
        }
        let validate = try TiltboxBinary.run(["validate", trace], in: directory)
        #expect(validate.status == 2)
        #expect(
            validate.stderrLines.count == 1
                && validate.stderr.contains("\(trace): this is a Tiltbox trace, not a scenario"),
            "stderr: \(validate.stderr)")
    }

    @Test func aScenarioGivenAsATraceIsNamedAScenario() throws {
        let directory = try TemporaryDirectory()
        let trace = try trace(in: directory)
        let pretty = PackageFiles.scenario("crate-stack.json")
        // On one line, it reaches the trace header's format check rather than a syntax error.
        let oneLine = try directory.write(
            "one-line.json", #"{"format": "tiltbox-scenario/1", "world": {"size": [100, 100]}}"#)
        for scenario in [pretty, oneLine] {
            for arguments in [
                ["diff", scenario, trace], ["diff", trace, scenario], ["verify", "--against", scenario],
            ] {
                let result = try TiltboxBinary.run(arguments, in: directory)
                #expect(result.status == 2, "\(arguments): stdout: \(result.stdout) stderr: \(result.stderr)")
                #expect(
                    result.stderrLines == ["\(scenario): this is a Tiltbox scenario, not a trace"],
                    "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test func aMissingTiltFileIsReportedWhereTheScenarioNamesIt() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write(
            "tilted.json",
            """
            {
              "format": "tiltbox-scenario/1",
              "world": { "size": [200, 200] },
              "tilt": { "orientation": "portrait",
                        "file": "tilt/missing.csv" }
            }
            """)
        let expected = "\(scenario):5:21: tilt.file: the tilt file \(directory.path("tilt/missing.csv")) does not exist"
        for arguments in [["run", scenario, "--duration", "0.1"], ["validate", scenario]] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments): stdout: \(result.stdout) stderr: \(result.stderr)")
            #expect(result.stderrLines == [expected], "\(arguments): \(result.stderr)")
        }
        // --tilt replaces the scenario's file, so the missing one does not matter.
        let replaced = try TiltboxBinary.run(
            [
                "run", scenario, "--duration", "0.1",
                "--tilt", PackageFiles.scenario("tilt/book-landscape.csv"),
            ], in: directory)
        #expect(replaced.status == 0, "stderr: \(replaced.stderr)")
    }

    @Test func anOutputFolderThatDoesNotExistIsBadInput() throws {
        let directory = try TemporaryDirectory()
        let trace = try trace(in: directory)
        let missing = directory.path("no-such-folder")
        let cases: [(arguments: [String], output: String)] = [
            (["run", "--trace", missing + "/t.jsonl", "--duration", "0.1"], missing + "/t.jsonl"),
            (["run", "--html", missing + "/t.html", "--duration", "0.1"], missing + "/t.html"),
            (["render", trace, "--svg", missing + "/t.svg"], missing + "/t.svg"),
            (["render", trace, "--html", missing + "/t.html"], missing + "/t.html"),
            (["record", PackageFiles.scenario("book.json"), "--out", missing + "/tilt.csv"], missing + "/tilt.csv"),
            (
                [
                    "record", PackageFiles.scenario("book.json"), "--out", directory.path("tilt.csv"), "--trace",
                    missing + "/t.jsonl",
                ], missing + "/t.jsonl"
            ),
        ]
        for (arguments, output) in cases {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments): stdout: \(result.stdout) stderr: \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("\(output): "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("the folder \(missing) does not exist"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("operation could not be completed"), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        // A file where the folder should be is named too.
        let notFolder = try TiltboxBinary.run(
            ["run", "--trace", trace + "/t.jsonl", "--duration", "0.1"], in: directory)
        #expect(notFolder.status == 2, "stderr: \(notFolder.stderr)")
        #expect(notFolder.stderr.contains("\(trace) is not a folder"), "stderr: \(notFolder.stderr)")
    }
}
