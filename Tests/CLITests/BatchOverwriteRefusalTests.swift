import Foundation
import Testing

/// `batch`, `batch --verify` and `batch-merge` refuse, before any job runs, an output that is
/// one of the files they read — including the scenario and tilt file a golden's header names,
/// however the output spells it — and a manifest's trace outside the manifest's folder.
@Suite struct BatchOverwriteRefusalTests {
    /// How an output names a file, relative to the folder the command runs in.
    enum Spelling: String, CaseIterable, Sendable {
        case plain, dotSlash, absolute, dotDot, symbolicLink, hardLink

        /// `relative` (a file inside `directory`) spelt this way; links are made in `directory`.
        func name(for relative: String, in directory: TemporaryDirectory) throws -> String {
            switch self {
            case .plain: return relative
            case .dotSlash: return "./" + relative
            case .absolute: return directory.path(relative)
            case .dotDot:
                try FileManager.default.createDirectory(
                    atPath: directory.path("detour"), withIntermediateDirectories: true)
                return "detour/../" + relative
            case .symbolicLink:
                let link = "soft-\(UUID().uuidString)"
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path(link), withDestinationPath: directory.path(relative))
                return link
            case .hardLink:
                let link = "hard-\(UUID().uuidString)"
                try FileManager.default.linkItem(atPath: directory.path(relative), toPath: directory.path(link))
                return link
            }
        }
    }

    /// A file a batch reads, as a path relative to the folder it runs in.
    enum Input: String, CaseIterable, Sendable {
        case scenarioFromHeader, tiltFromHeader, golden, manifest

        var relative: String {
            switch self {
            case .scenarioFromHeader: return "Scenarios/rocking.json"
            case .tiltFromHeader: return "Scenarios/tilt/rock.json"
            case .golden: return "g.jsonl"
            case .manifest: return "m.json"
            }
        }
    }

    static let resultOptions = ["--junit", "--json", "--csv"]

    /// A folder with `Scenarios/rocking.json` (whose `tilt.file` is `tilt/rock.json`), the
    /// golden `g.jsonl` recorded from it (its header names both, relative to the golden),
    /// and a manifest `m.json` verifying that golden.
    static func goldenFolder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.path("Scenarios/tilt"), withIntermediateDirectories: true)
        for file in ["rocking.json", "tilt/rock.json"] {
            try FileManager.default.copyItem(
                atPath: PackageFiles.scenario(file), toPath: directory.path("Scenarios/" + file))
        }
        let run = try run(
            ["run", "Scenarios/rocking.json", "--duration", "0.1", "--trace", "g.jsonl", "--view", "none"],
            in: directory)
        try #require(run.status == 0, "making the golden: \(run.stderr)")
        let header = try String(contentsOfFile: directory.path("g.jsonl"), encoding: .utf8).prefix(while: { $0 != "\n" }
        )
        try #require(
            header.contains("\"scenario\":\"Scenarios/rocking.json\"")
                && header.contains("\"tilt\":\"Scenarios/tilt/rock.json\""),
            "the golden's header names its scenario and tilt file: \(header)")
        try directory.write("m.json", #"{"format": "tiltbox-batch/1", "jobs": [{"name": "v", "verify": "g.jsonl"}]}"#)
        return directory
    }

    /// Runs the built `tiltbox` in `directory`, so relative paths are relative to it.
    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> TiltboxBinary.Result {
        let out = directory.url.appendingPathComponent("\(UUID().uuidString).out")
        let err = directory.url.appendingPathComponent("\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = try TiltboxBinary.url()
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        let result = TiltboxBinary.Result(
            status: process.terminationStatus,
            stdoutData: try Data(contentsOf: out), stderrData: try Data(contentsOf: err))
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
        return result
    }

    /// Runs `arguments` in `directory` and checks the refusal: exit 2, one line naming the
    /// output and "same file", no job run, and every input byte for byte as before.
    static func expectRefused(
        _ arguments: [String], naming option: String, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let inputs = Input.allCases.map { directory.path($0.relative) }
        let before = inputs.map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try run(arguments, in: directory)
        #expect(
            result.status == 2, "\(arguments): status \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderrLines.count == 1 && result.stderr.contains(option) && result.stderr.contains("same file"),
            "\(arguments): one line naming \(option): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stdout.contains("batch:"), "no job ran: \(result.stdout)", sourceLocation: sourceLocation)
        for (path, data) in zip(inputs, before) {
            #expect(
                (try? Data(contentsOf: URL(fileURLWithPath: path))) == data, "\(path) changed",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [Input.scenarioFromHeader, .tiltFromHeader, .golden], Spelling.allCases)
    func verifyPatternRefusesAResultFileThatIsAnInput(_ input: Input, _ spelling: Spelling) throws {
        let directory = try Self.goldenFolder()
        for option in Self.resultOptions {
            let output = try spelling.name(for: input.relative, in: directory)
            try Self.expectRefused(["batch", "--verify", "g.jsonl", option, output], naming: option, in: directory)
        }
    }

    @Test(arguments: Input.allCases, Spelling.allCases)
    func manifestBatchRefusesAResultFileThatIsAnInput(_ input: Input, _ spelling: Spelling) throws {
        let directory = try Self.goldenFolder()
        for option in Self.resultOptions {
            let output = try spelling.name(for: input.relative, in: directory)
            try Self.expectRefused(["batch", "m.json", option, output], naming: option, in: directory)
        }
    }

    @Test(arguments: Input.allCases, Spelling.allCases)
    func manifestRefusesAJobTraceThatIsAnInput(_ input: Input, _ spelling: Spelling) throws {
        let directory = try Self.goldenFolder()
        let output = try spelling.name(for: input.relative, in: directory)
        // The manifest itself is the input for .manifest: the trace names it from inside.
        let escaped = output.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        // Rewritten in place, so a hard link made to it above still names it.
        let handle = try #require(FileHandle(forWritingAtPath: directory.path("m.json")))
        try handle.truncate(atOffset: 0)
        try handle.write(
            contentsOf: Data(
                """
                {"format": "tiltbox-batch/1", "jobs": [{"name": "v", "verify": "g.jsonl"},
                  {"name": "r", "run": "Scenarios/rocking.json", "duration": 0.1, "trace": "\(escaped)"}]}
                """.utf8))
        try handle.close()
        try Self.expectRefused(["batch", "m.json"], naming: "the trace of job r", in: directory)
    }

    @Test(arguments: Spelling.allCases)
    func batchMergeRefusesAResultFileThatIsAShardSummary(_ spelling: Spelling) throws {
        let directory = try Self.goldenFolder()
        let made = try Self.run(["batch", "m.json", "--json", "s.json"], in: directory)
        try #require(made.status == 0, "making the summary: \(made.stderr)")
        for option in Self.resultOptions {
            let before = try Data(contentsOf: directory.url.appendingPathComponent("s.json"))
            let output = try spelling.name(for: "s.json", in: directory)
            let result = try Self.run(["batch-merge", "s.json", option, output], in: directory)
            #expect(
                result.status == 2 && result.stderrLines.count == 1 && result.stderr.contains("same file"),
                "\(option) \(output): \(result.status) \(result.stderr)")
            #expect(try Data(contentsOf: directory.url.appendingPathComponent("s.json")) == before)
        }
    }

    @Test func aRunJobsTraceThatIsItsScenariosTiltFileIsRefused() throws {
        let directory = try Self.goldenFolder()
        try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "r", "run": "Scenarios/rocking.json", "duration": 0.1, "trace": "Scenarios/tilt/rock.json"}]}
            """)
        try Self.expectRefused(["batch", "m.json"], naming: "tilt file of job r's scenario", in: directory)
    }

    @Test func aCompressedGoldensHeaderIsReadForTheFilesItNames() throws {
        let directory = try Self.goldenFolder()
        let run = try Self.run(
            ["run", "Scenarios/rocking.json", "--duration", "0.1", "--trace", "g.jsonl.zst", "--view", "none"],
            in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        try Self.expectRefused(
            ["batch", "--verify", "g.jsonl.zst", "--junit", "Scenarios/rocking.json"], naming: "--junit", in: directory)
        try Self.expectRefused(
            ["batch", "--verify", "g.jsonl.zst", "--csv", "Scenarios/tilt/rock.json"], naming: "--csv", in: directory)
    }

    // MARK: - Outputs outside the manifest's folder

    /// Trace paths that leave the manifest's folder `work/`: up and out, absolute, and through
    /// a symbolic link to a folder outside.
    enum Outside: String, CaseIterable, Sendable {
        case dotDot, absolute, throughSymbolicLink

        func trace(in directory: TemporaryDirectory) throws -> String {
            switch self {
            case .dotDot: return "../outside.jsonl"
            case .absolute: return directory.path("outside.jsonl")
            case .throughSymbolicLink:
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path("work/up"), withDestinationPath: directory.url.path)
                return "up/outside.jsonl"
            }
        }
    }

    @Test(arguments: Outside.allCases)
    func aManifestTraceOutsideTheManifestsFolderIsRefusedUnlessAllowed(_ outside: Outside) throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("work"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("work/s.json"))
        let victim = try directory.write("outside.jsonl", "keep me\n")
        let trace = try outside.trace(in: directory)
        let manifest = try directory.write(
            "work/m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "r", "run": "s.json", "duration": 0.1, "trace": "\(trace)"}]}
            """)
        let refused = try TiltboxBinary.run(["batch", manifest], in: directory)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderrLines.count == 1 && refused.stderr.contains("m.json:1:")
                && refused.stderr.contains("jobs[0].trace") && refused.stderr.contains("outside the manifest's folder")
                && refused.stderr.contains("--allow-outputs-outside"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        let allowed = try TiltboxBinary.run(["batch", manifest, "--allow-outputs-outside"], in: directory)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8).hasPrefix("{\"format\":\"tiltbox-trace/1\""))
    }

    @Test func aManifestTraceInASubfolderOfTheManifestsFolderIsAccepted() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("out/deeper"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("s.json"))
        let manifest = try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "r", "run": "s.json", "duration": 0.1, "trace": "out/../out/deeper/t.jsonl"}]}
            """)
        let result = try TiltboxBinary.run(["batch", manifest], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("out/deeper/t.jsonl")))
    }
}
