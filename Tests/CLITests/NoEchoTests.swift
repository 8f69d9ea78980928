import Foundation
import Testing

/// A file that is not what a command expects is named, with what was expected, and never
/// quoted: a secret given by mistake (or by a hostile manifest) as a scenario, tilt file,
/// keyframes, frame file, trace, manifest or shard summary must not reach standard error,
/// standard output or a batch's result files. Files of the kernel's own file systems
/// (`/proc/self/environ`, which holds the environment) are refused as inputs.
@Suite struct NoEchoTests {
    static let marker = "TBXSECRET7731"

    /// Contents that carry the marker where today's messages used to quote: a line of text,
    /// a CSV header, a JSON key, a `format` value, a key before a syntax error.
    static let contents = [
        "\(marker)=hunter2\n",
        "\(marker),a,b\n0,1,2\n",
        "{\"\(marker)\": 1}\n",
        "{\"format\": \"\(marker)\"}\n",
        "{\"format\": \"\(marker)\", \"\(marker)x\": 2}\n",
        "{\"\(marker)\" 1}\n",
    ]

    /// One command line for each input kind, reading the file `m` (named without the marker).
    static func commands(_ m: String, _ directory: TemporaryDirectory) -> [[String]] {
        let scenario = PackageFiles.scenario("crate-stack.json")
        let golden = directory.path("g.jsonl")
        return [
            ["validate", m],
            ["run", m, "--duration", "0.1", "--view", "none"],
            ["run", scenario, "--tilt", m, "--duration", "0.1", "--view", "none"],
            ["run", scenario, "--frames", "file:\(m)", "--duration", "0.1", "--view", "none"],
            ["tilt", m],
            ["diff", m, golden],
            ["verify", scenario, "--against", m],
            ["render", m, "--svg", directory.path("out.svg")],
            ["batch", m, "--json", directory.path("r.json")],
            ["batch-merge", m, "--json", directory.path("r.json")],
            [
                "batch", "--verify", m, "--junit", directory.path("r.xml"), "--json", directory.path("r.json"),
                "--csv", directory.path("r.csv"),
            ],
        ]
    }

    @Test(arguments: contents.indices)
    func aMarkerFileGivenAsAnyInputIsNeverQuoted(_ which: Int) throws {
        let directory = try TemporaryDirectory()
        let made = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.1",
                "--trace", directory.path("g.jsonl"), "--view", "none",
            ], in: directory)
        try #require(made.status == 0, "\(made.stderr)")
        let m = try directory.write("input-\(which)", Self.contents[which])
        for arguments in Self.commands(m, directory) {
            for output in ["r.json", "r.xml", "r.csv", "out.svg"] {
                try? FileManager.default.removeItem(atPath: directory.path(output))
            }
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 1 || result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
            #expect(
                !result.stderr.contains(Self.marker) && !result.stdout.contains(Self.marker),
                "\(arguments) quoted the file: \(result.stderr) \(result.stdout)")
            for output in ["r.json", "r.xml", "r.csv", "out.svg"] {
                let text = (try? String(contentsOfFile: directory.path(output), encoding: .utf8)) ?? ""
                #expect(!text.contains(Self.marker), "\(arguments): \(output) quotes the file: \(text)")
            }
        }
    }

    @Test(arguments: contents.indices)
    func aBatchJobsMarkerTiltFileIsNotQuotedInItsResults(_ which: Int) throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("s.json"))
        try directory.write("t.csv", Self.contents[which])
        try directory.write("f.txt", Self.contents[which])
        let manifest = try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "tilt", "run": "s.json", "tilt": "t.csv", "duration": 0.1},
              {"name": "scenario", "run": "f.txt", "duration": 0.1}]}
            """)
        let result = try TiltboxBinary.run(
            [
                "batch", manifest, "--junit", directory.path("r.xml"), "--json", directory.path("r.json"),
                "--csv", directory.path("r.csv"),
            ], in: directory)
        #expect(result.status == 2, "\(result.stderr) \(result.stdout)")
        #expect(
            !result.stderr.contains(Self.marker) && !result.stdout.contains(Self.marker),
            "\(result.stderr) \(result.stdout)")
        for output in ["r.json", "r.xml", "r.csv"] {
            let text = try String(contentsOfFile: directory.path(output), encoding: .utf8)
            #expect(text.contains("error"), "\(output) reports the jobs: \(text)")
            #expect(!text.contains(Self.marker), "\(output) quotes the file: \(text)")
        }
    }

    /// Ways `/proc/self/environ` reaches a command: directly, as a scenario's `tilt.file`, as a manifest job's tilt.
    @Test func theProcessEnvironmentIsRefusedAsAnInputAndNeverPrinted() throws {
        let directory = try TemporaryDirectory()
        let environ = "/proc/self/environ"
        let scenarioText = try String(contentsOfFile: PackageFiles.scenario("crate-stack.json"), encoding: .utf8)
        let withTilt = scenarioText.replacingOccurrences(
            of: "\"format\": \"tiltbox-scenario/1\",",
            with: "\"format\": \"tiltbox-scenario/1\", \"tilt\": {\"file\": \"\(environ)\"},")
        try #require(withTilt != scenarioText)
        let scenario = try directory.write("s.json", withTilt)
        let manifest = try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "env", "run": "s.json", "duration": 0.1}]}
            """)
        let secret = ["TILTBOX_TEST_SECRET": Self.marker]
        let cases: [[String]] = [
            ["validate", environ],
            ["run", PackageFiles.scenario("crate-stack.json"), "--tilt", environ, "--view", "none"],
            ["run", scenario, "--duration", "0.1", "--view", "none"],
            ["run", PackageFiles.scenario("crate-stack.json"), "--frames", "file:\(environ)", "--view", "none"],
            ["diff", environ, environ],
            ["render", environ, "--svg", directory.path("out.svg")],
            ["batch", environ],
            ["batch-merge", environ],
            ["batch", manifest, "--junit", directory.path("r.xml")],
        ]
        for arguments in cases {
            let result = try TiltboxBinary.run(arguments, in: directory, environment: secret)
            #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
            #expect(
                !result.stderr.contains(Self.marker) && !result.stdout.contains(Self.marker),
                "\(arguments): \(result.stderr)")
        }
        let direct = try TiltboxBinary.run(["validate", environ], in: directory, environment: secret)
        #expect(
            direct.stderrLines == ["\(environ): is a file of the kernel's proc file system, not an input file"],
            "\(direct.stderr)")
        let junit = try String(contentsOfFile: directory.path("r.xml"), encoding: .utf8)
        #expect(junit.contains("proc file system") && !junit.contains(Self.marker), "\(junit)")
    }
}
