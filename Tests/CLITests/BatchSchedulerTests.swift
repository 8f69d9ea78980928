import Foundation
import Testing

/// The README's recipes for sharding a batch, run as written: GNU parallel on this machine's
/// cores, and a Slurm job array on a single-node cluster of the test's own. Each merged result
/// must equal the unsharded batch's (but for wall times). Serialized: the Slurm test starts
/// daemons, and the machine has 2 cores.
@Suite(.serialized) struct BatchSchedulerTests {
    /// GNU parallel, four shards on one machine (README "Recipes").
    static let parallelRecipe = """
        mkdir -p out
        TILTBOX_SHARDS=4 parallel -j 4 tiltbox batch m.json --jobs 1 --shard auto --json out/shard-{#}.json ::: 1 2 3 4
        tiltbox batch-merge out/shard-*.json --junit out/junit.xml --json out/batch.json
        """

    /// The Slurm job array script (README "Recipes").
    static let slurmScript = """
        #!/bin/sh
        #SBATCH --job-name=tiltbox-batch
        #SBATCH --array=0-3
        #SBATCH --output=out/slurm-%a.log
        tiltbox batch m.json --shard auto --json out/shard-$SLURM_ARRAY_TASK_ID.json
        """

    /// Submitting it and merging (README "Recipes").
    static let slurmRecipe = """
        mkdir -p out
        sbatch --wait batch.sbatch
        tiltbox batch-merge out/shard-*.json --junit out/junit.xml --json out/batch.json
        """

    @Test func theReadmeShowsTheRecipesTheseTestsRun() throws {
        let readme = try String(contentsOf: PackageFiles.root.appendingPathComponent("README.md"), encoding: .utf8)
        for recipe in [Self.parallelRecipe, Self.slurmScript, Self.slurmRecipe] {
            #expect(readme.contains("```sh\n" + recipe + "\n```"), "README lacks the recipe:\n\(recipe)")
        }
    }

    /// A project of 12 quick jobs (two runs, a verify, a 3 × 3 sweep) with a passing golden.
    private func project(_ directory: TemporaryDirectory) throws {
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("bounce.json"), toPath: directory.path("bounce.json"))
        let golden = try TiltboxBinary.run(
            [
                "run", directory.path("bounce.json"), "--duration", "0.2", "--quiet",
                "--trace", directory.path("golden.jsonl"),
            ], in: directory)
        try #require(golden.status == 0, "run: \(golden.stderr)")
        try directory.write(
            "m.json",
            #"""
            {"format": "tiltbox-batch/1", "jobs": [
              {"name": "short", "run": "bounce.json", "duration": 0.05},
              {"name": "sparse", "run": "bounce.json", "duration": 0.1, "every": 2},
              {"name": "golden", "verify": "golden.jsonl"},
              {"name": "sw", "run": "bounce.json", "duration": 0.05,
               "sweep": {"world.gravity": [[0, -500], [0, -980], [0, -1200]], "timestep.hz": [60, 120, 240]}}]}
            """#)
    }

    /// The environment of a shell that finds the built `tiltbox` on its PATH, as a user's does.
    private func shellEnvironment(_ extra: [String: String] = [:]) throws -> [String: String] {
        let folder = try TiltboxBinary.url().deletingLastPathComponent().path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // GNU parallel's citation notice must never wait for an answer.
        return ["PATH": folder + ":" + path, "PARALLEL": "--will-cite"].merging(extra) { _, new in new }
    }

    /// Runs `script` with `sh -e` in `directory`.
    private func shell(
        _ script: String, in directory: TemporaryDirectory, environment: [String: String],
        timeout: TimeInterval
    ) throws -> TiltboxBinary.Result {
        try ExternalCommand.run(
            try ExternalCommand.executable("sh", package: "dash"), ["-e", "-c", script],
            environment: environment, directory: directory.url, timeout: timeout)
    }

    /// The summary at `path` without the jobs' wall times (the only part that may differ).
    private func withoutWallTimes(_ path: String) throws -> NSDictionary {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var summary = try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not a JSON object")
        let jobs = try #require(summary["jobs"] as? [[String: Any]], "\(path) has no jobs")
        summary["jobs"] = jobs.map { job in job.filter { $0.key != "wallSeconds" } }
        return summary as NSDictionary
    }

    /// The unsharded batch's summary, for comparison.
    private func unsharded(_ directory: TemporaryDirectory) throws -> NSDictionary {
        let whole = try TiltboxBinary.run(
            ["batch", directory.path("m.json"), "--json", directory.path("whole.json")], in: directory)
        #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")
        let summary = try withoutWallTimes(directory.path("whole.json"))
        #expect((summary["jobs"] as? [Any])?.count == 12)
        return summary
    }

    @Test func fourGNUParallelShardsMergeToTheUnshardedBatch() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        _ = try ExternalCommand.executable("parallel", package: "parallel")
        let result = try shell(Self.parallelRecipe, in: directory, environment: try shellEnvironment(), timeout: 300)
        #expect(result.status == 0, "recipe: \(result.stdout)\(result.stderr)")
        let shards = try FileManager.default.contentsOfDirectory(atPath: directory.path("out")).filter {
            $0.hasPrefix("shard-")
        }
        #expect(shards.sorted() == ["shard-1.json", "shard-2.json", "shard-3.json", "shard-4.json"])
        #expect(try withoutWallTimes(directory.path("out/batch.json")) == (try unsharded(directory)))
        #expect(FileManager.default.fileExists(atPath: directory.path("out/junit.xml")))
    }

    @Test func aFourTaskSlurmArrayMergesToTheUnshardedBatch() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        try directory.write("batch.sbatch", Self.slurmScript + "\n")
        let cluster = try SlurmCluster()
        defer { cluster.stop() }
        let result = try shell(
            Self.slurmRecipe, in: directory, environment: try shellEnvironment(cluster.environment), timeout: 300)
        #expect(result.status == 0, "recipe: \(result.stdout)\(result.stderr)\n\(cluster.diagnostics())")
        let shards = try FileManager.default.contentsOfDirectory(atPath: directory.path("out")).filter {
            $0.hasPrefix("shard-")
        }
        #expect(
            shards.sorted() == ["shard-0.json", "shard-1.json", "shard-2.json", "shard-3.json"],
            "\(cluster.diagnostics())")
        #expect(try withoutWallTimes(directory.path("out/batch.json")) == (try unsharded(directory)))
        let queue = try SchedulerHarnessTests.emptyQueue(cluster)
        #expect(queue.status == 0 && queue.stdout.isEmpty, "the queue empties after --wait: \(queue.stdout)")
        cluster.stop()
        #expect(cluster.leftoverProcesses().isEmpty)
    }
}
