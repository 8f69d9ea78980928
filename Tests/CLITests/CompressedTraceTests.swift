import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Traces written to a path ending in `.zst`: one zstd frame that the real `zstd` tool
/// decompresses to exactly the plain trace of the same run, however the run ends, and that
/// every reader (`diff`, `verify`, `render`, `batch`) reads as if it were plain, with one
/// located line and exit 2 for a damaged, cut-off or hostile file.
@Suite(.serialized) struct CompressedTraceTests {
    /// The `zstd` command line tool (`make test` installs it).
    static func zstd() throws -> String {
        try ExternalCommand.executable("zstd", package: "zstd")
    }

    /// `zstd -dc path` (which also checks the frame's checksum), as bytes.
    static func decompressed(_ path: String) throws -> Data {
        let result = try ExternalCommand.run(try zstd(), ["-q", "-dc", path], timeout: 120)
        #expect(result.status == 0, "zstd -dc \(path): \(result.stderr)")
        return result.stdoutData
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Runs `tiltbox run SCENARIO --trace PATH` with `options` and requires exit 0.
    static func run(_ scenario: String, trace: String, _ options: [String], in directory: TemporaryDirectory) throws {
        let run = try TiltboxBinary.run(
            ["run", scenario, "--view", "none", "--quiet", "--trace", trace] + options, in: directory)
        try #require(run.status == 0, "run --trace \(trace) \(options): \(run.stderr)")
    }

    /// The zstd frame magic number, `28 B5 2F FD`.
    static let magic = Data([0x28, 0xB5, 0x2F, 0xFD])

    // MARK: - Writing

    @Test(arguments: [[String](), ["--every", "10"], ["--hashes"]])
    func zstdDecompressesTheTraceToThePlainTraceByteForByte(_ options: [String]) throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("pile-100.json")
        let plain = directory.path("pile.jsonl"), packed = directory.path("pile.jsonl.zst")
        try Self.run(scenario, trace: plain, options + ["--duration", "2"], in: directory)
        try Self.run(scenario, trace: packed, options + ["--duration", "2"], in: directory)
        let compressed = try Self.bytes(packed)
        #expect(compressed.prefix(4) == Self.magic, "a .zst trace starts with zstd's magic number")
        let plainBytes = try Self.bytes(plain)
        #expect(compressed.count < plainBytes.count, "\(compressed.count) compressed bytes, \(plainBytes.count) plain")
        #expect(try Self.decompressed(packed) == plainBytes, "zstd -dc gives the plain trace, byte for byte")
        let test = try ExternalCommand.run(try Self.zstd(), ["-q", "-t", packed], timeout: 60)
        #expect(test.status == 0, "zstd -t: \(test.stderr)")
        let listing = try ExternalCommand.run(try Self.zstd(), ["-lv", packed], timeout: 60)
        #expect(listing.stdout.contains("Check: XXH64"), "the frame carries a content checksum: \(listing.stdout)")
    }

    @Test func theRunSummaryGivesTheCompressedSize() throws {
        let directory = try TemporaryDirectory()
        let packed = directory.path("stack.jsonl.zst")
        let run = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--view", "none", "--duration", "1",
                "--trace", packed,
            ], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        let size = try Self.bytes(packed).count
        #expect(run.stdout.contains("trace:") && run.stdout.contains(" \(size) bytes"), "\(run.stdout)")
    }

    @Test func aDivergingRunEndsItsCompressedTraceWithTheErrorLineInAWholeFrame() throws {
        let directory = try TemporaryDirectory()
        let packed = directory.path("runaway.jsonl.zst")
        let scenario = DivergenceTests.runaway()
        let summary = try ScenarioRunner.run(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), options: RunOptions(),
            tracePath: packed, shouldStop: { false })
        guard case .diverged = summary.outcome else {
            Issue.record("expected a divergence, got \(summary.outcome)")
            return
        }
        let text = String(decoding: try Self.decompressed(packed), as: UTF8.self)
        let end = try #require(JSONLines.objects(text, source: packed).last)
        #expect(end["end"] as? String == "error", "\(end)")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func interruptedCompressedRunsEndInAValidFrameWithTheirEndLine() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("pile-100.json")
        var interrupted = 0
        for (i, delay) in KillPointTests.killDelays(count: 6, seed: 20_261_124, upTo: 0.8).enumerated() {
            let trace = directory.path("kill\(i).jsonl.zst")
            let out = directory.url.appendingPathComponent("kill\(i).out"),
                err = directory.url.appendingPathComponent("kill\(i).err")
            // A run that cannot end before the signal, however fast the machine.
            let process = try TiltboxBinary.start(
                [
                    "run", scenario, "--trace", trace, "--duration", Patience.unfinishableDuration,
                    "--every", "4",
                ], stdout: out, stderr: err)
            // Wait until the run writes (its temporary file is there), then let it go on a while.
            let writing = Patience.wait {
                !process.isRunning
                    || !Patience.names(in: directory, startingWith: ".kill\(i).jsonl.zst.tiltbox-").isEmpty
            }
            #expect(writing && process.isRunning, "kill \(i): the run never started writing its trace")
            Thread.sleep(forTimeInterval: delay) // where the signal lands: the spread this test is about
            if i % 2 == 0 { process.interrupt() } else { process.terminate() }
            process.waitForExit("after kill \(i)")
            switch (process.terminationReason, process.terminationStatus) {
            case (.exit, 130) where i % 2 == 0, (.exit, 143) where i % 2 == 1:
                interrupted += 1
                let test = try ExternalCommand.run(try Self.zstd(), ["-q", "-t", trace], timeout: 60)
                #expect(test.status == 0, "kill \(i): zstd -t: \(test.stderr)")
                let plain = directory.path("kill\(i).jsonl")
                try Self.decompressed(trace).write(to: URL(fileURLWithPath: plain))
                let end = try KillPointTests.validTraceEnd(plain)
                #expect(end["end"] as? String == "interrupted", "kill \(i) at \(delay) s: \(end)")
                // Tiltbox reads it back too, end line and digest included.
                let back = try TiltboxBinary.run(["diff", trace, plain], in: directory)
                #expect(back.status == 0, "kill \(i): \(back.stderr)")
            case (.uncaughtSignal, _):
                #expect(
                    !FileManager.default.fileExists(atPath: trace),
                    "kill \(i): killed before the run, yet a trace exists")
            default:
                Issue.record(
                    "kill \(i) at \(delay) s: unexpected exit \(process.terminationReason) \(process.terminationStatus)"
                )
            }
        }
        #expect(interrupted >= 5, "\(interrupted) of 6 runs were interrupted mid-run")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.contains(".tiltbox-")
        }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
    }

    @Test func aCompressedTraceOutputThatIsTheScenarioIsRefused() throws {
        let directory = try TemporaryDirectory()
        let scenario = directory.path("stack.json.zst")
        try FileManager.default.copyItem(atPath: PackageFiles.scenario("crate-stack.json"), toPath: scenario)
        try OverwriteRefusalTests.expectRefused(
            ["run", scenario, "--trace", scenario, "--view", "none"], option: "--trace",
            protected: [scenario], in: directory)
    }

    // MARK: - Reading

    /// A plain and a compressed trace of the same 1 s run of the crate stack.
    static func pair(_ directory: TemporaryDirectory) throws -> (plain: String, packed: String) {
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("stack.json"))
        let plain = directory.path("stack.jsonl"), packed = directory.path("stack.jsonl.zst")
        try Self.run(directory.path("stack.json"), trace: plain, ["--duration", "1"], in: directory)
        try Self.run(directory.path("stack.json"), trace: packed, ["--duration", "1"], in: directory)
        return (plain, packed)
    }

    @Test func diffVerifyAndRenderReadCompressedTracesAsPlainOnes() throws {
        let directory = try TemporaryDirectory()
        let (plain, packed) = try Self.pair(directory)
        for (a, b) in [(plain, packed), (packed, plain), (packed, packed)] {
            let diff = try TiltboxBinary.run(["diff", a, b], in: directory)
            #expect(
                diff.status == 0 && diff.stdout.hasPrefix("identical: 121 records"),
                "diff \(a) \(b): \(diff.stdout) \(diff.stderr)")
        }
        // Told by the magic number, not the name.
        let renamed = directory.path("renamed.jsonl")
        try FileManager.default.copyItem(atPath: packed, toPath: renamed)
        let byMagic = try TiltboxBinary.run(["diff", renamed, plain], in: directory)
        #expect(byMagic.status == 0, "\(byMagic.stderr)")
        let verify = try TiltboxBinary.run(["verify", "--against", packed], in: directory)
        #expect(verify.status == 0, "verify: \(verify.stdout) \(verify.stderr)")
        // A divergence is found in a compressed trace too.
        let other = try TiltboxBinary.run(
            ["verify", "--against", packed, "--set", "world.gravity=[0,-900]"], in: directory)
        #expect(other.status == 1, "verify with other gravity: \(other.stdout) \(other.stderr)")
        for path in [plain, packed] {
            let render = try TiltboxBinary.run(["render", path, "--html", path + ".html"], in: directory)
            #expect(render.status == 0, "render \(path): \(render.stderr)")
        }
        #expect(
            try Self.bytes(plain + ".html") == (try Self.bytes(packed + ".html")), "the same page from either trace")
    }

    @Test func batchVerifiesCompressedGoldensAndWritesCompressedTraces() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("stack.json"))
        for folder in ["golden", "out"] {
            try FileManager.default.createDirectory(atPath: directory.path(folder), withIntermediateDirectories: true)
        }
        // Traces record their scenario relative to their own folder: the plain one goes where the job's will.
        let plain = directory.path("out/plain.jsonl")
        try Self.run(directory.path("stack.json"), trace: plain, ["--duration", "1"], in: directory)
        try Self.run(
            directory.path("stack.json"), trace: directory.path("golden/stack.jsonl.zst"), ["--duration", "1"],
            in: directory)
        let verify = try TiltboxBinary.run(
            ["batch", "--verify", directory.path("golden/*.jsonl.zst"), "--json", directory.path("v.json")],
            in: directory)
        #expect(verify.status == 0, "batch --verify: \(verify.stdout) \(verify.stderr)")
        let summary = try String(contentsOfFile: directory.path("v.json"), encoding: .utf8)
        #expect(summary.contains("\"passed\"") && summary.contains("golden/stack.jsonl.zst"), "\(summary)")
        let manifest = try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [
              {"name": "stack", "run": "stack.json", "duration": 1, "trace": "out/stack.jsonl.zst"},
              {"name": "check", "verify": "golden/stack.jsonl.zst"}]}
            """)
        let batch = try TiltboxBinary.run(["batch", manifest], in: directory)
        #expect(batch.status == 0, "batch: \(batch.stdout) \(batch.stderr)")
        let written = directory.path("out/stack.jsonl.zst")
        #expect(try Self.bytes(written).prefix(4) == Self.magic)
        #expect(
            try Self.decompressed(written) == (try Self.bytes(plain)), "the job's trace decompresses to the plain trace"
        )
    }

    /// Damaged copies of a compressed trace: each command exits 2 with one line naming
    /// the file and a line of it.
    @Test func corruptAndTruncatedCompressedTracesFailWithOneLocatedLine() throws {
        let directory = try TemporaryDirectory()
        let (plain, packed) = try Self.pair(directory)
        let good = try Self.bytes(packed)
        var damaged: [(name: String, data: Data, says: String)] = []
        damaged.append(("cut.jsonl.zst", good.prefix(good.count / 2), "the file is cut off"))
        damaged.append(("magic-only.jsonl.zst", good.prefix(4), "the file is cut off"))
        var flipped = good
        flipped[good.count / 2] ^= 0xFF
        damaged.append(("flipped.jsonl.zst", flipped, "corrupt zstd data"))
        var checksum = good
        checksum[good.count - 1] ^= 0x01
        damaged.append(("checksum.jsonl.zst", checksum, "corrupt zstd data"))
        damaged.append(("trailing.jsonl.zst", good + Data("garbage".utf8), "corrupt zstd data"))
        for item in damaged {
            let path = directory.path(item.name)
            try item.data.write(to: URL(fileURLWithPath: path))
            for command in [
                ["diff", plain, path], ["diff", path, plain], ["verify", "--against", path],
                ["render", path, "--html", directory.path("out.html")],
            ] {
                let run = try TiltboxBinary.run(command, in: directory)
                #expect(run.status == 2, "\(command): status \(run.status), \(run.stdout) \(run.stderr)")
                #expect(run.stderrLines.count == 1, "\(command): one line: \(run.stderr)")
                let located =
                    run.stderr.hasPrefix(path + ":")
                    && Int(run.stderr.dropFirst(path.count + 1).prefix(while: \.isNumber)) != nil
                #expect(located && run.stderr.contains(item.says), "\(command): \(run.stderr)")
            }
        }
        #expect(
            !FileManager.default.fileExists(atPath: directory.path("out.html")), "no page rendered from a damaged trace"
        )
    }

    /// Runs `script` with sh (the zstd tool in a pipeline), requiring exit 0.
    static func shell(_ script: String) throws {
        let result = try ExternalCommand.run("/bin/sh", ["-c", script], timeout: 300)
        try #require(result.status == 0, "\(script): \(result.stderr)")
    }

    @Test func aSmallFrameInflatingToAnEndlessLineIsRefusedInBoundedMemory() throws {
        let directory = try TemporaryDirectory()
        let (plain, _) = try Self.pair(directory)
        let bomb = directory.path("bomb.jsonl.zst")
        // The header, then a record line of 1 GiB of '1's: a few tens of KiB compressed.
        try Self.shell(
            "(head -n 1 '\(plain)'; printf '{\"step\":0,\"s\":['; head -c 1073741824 /dev/zero | tr '\\0' '1') "
                + "| '\(try Self.zstd())' -q -3 -c > '\(bomb)'")
        let size = try Self.bytes(bomb).count
        #expect(size < 200_000, "the frame is small: \(size) bytes")
        for command in [
            ["diff", bomb, plain], ["verify", "--against", bomb], ["render", bomb, "--html", directory.path("b.html")],
        ] {
            let run = try MeasuredRun.run(command, in: directory)
            #expect(run.status == 2, "\(command): \(run.summary)")
            #expect(run.stderr.hasPrefix(bomb + ":2: line longer than"), "\(command): \(run.summary)")
            #expect(run.peakMiB < MeasuredRun.bound(100), "\(command): \(run.summary)")
        }
    }

    @Test func aFrameAskingForAHugeWindowIsRefusedBeforeItIsAllocated() throws {
        let directory = try TemporaryDirectory()
        let (plain, _) = try Self.pair(directory)
        let wide = directory.path("wide.jsonl.zst")
        // Compressed from a pipe (size unknown) with --long=27: the frame asks for a 128 MiB window.
        try Self.shell("head -c 2000000 /dev/zero | '\(try Self.zstd())' -q --long=27 -c > '\(wide)'")
        let run = try MeasuredRun.run(["diff", wide, plain], in: directory)
        #expect(run.status == 2, "\(run.summary)")
        #expect(run.stderr.hasPrefix(wide + ":1: the zstd frame needs a window of more than 32 MiB"), "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(100), "\(run.summary)")
    }
}
