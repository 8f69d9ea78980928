import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox batch`: run the jobs of a manifest (or verify a set of goldens), each in its
    /// own child process, optionally one shard of them, and write JUnit, JSON and CSV results.
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Run a batch of verify and run jobs from a manifest, in parallel child processes (exit 0 all passed, 1 a job diverged, failed or crashed, 2 bad input).",
            discussion: """
                The manifest (format tiltbox-batch/1) lists jobs that verify a golden trace or run a scenario; relative paths are relative to its folder. --verify 'golden/*.jsonl' verifies every matching trace instead (the pattern is expanded by tiltbox, sorted).
                Each job runs in its own child tiltbox, --jobs at a time: a crash in one job is that job's error. With --shard K/N only the jobs whose index modulo N is K run (indices count sweep points); --shard auto reads K and N from Slurm, Kubernetes Indexed Jobs or GNU parallel. Merge shard summaries with tiltbox batch-merge.
                Exit status: 1 when a job diverged, failed or was killed by a signal; else 2 when a job's input was invalid; else 0. 130/143 when interrupted (results of the finished jobs are still written).
                """)

        @Argument(help: "The batch manifest (JSON, format tiltbox-batch/1).")
        var manifest: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Verify every golden trace matching PATTERN (quote it: tiltbox expands it) instead of reading a manifest.",
                valueName: "PATTERN"))
        var verify: String?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Jobs run at a time (default: the number of cores).", valueName: "N"))
        var jobs: Int?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Run only shard K of N (the jobs whose index modulo N is K, counting from 0), or 'auto' to read K and N from Slurm, Kubernetes or GNU parallel.",
                valueName: "K/N|auto"))
        var shard: String?

        @Option(name: .long, help: ArgumentHelp("Write the results as JUnit XML to FILE.", valueName: "FILE"))
        var junit: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write the results as a JSON summary (tiltbox-batch-result/1) to FILE, for batch-merge and scripts.",
                valueName: "FILE"))
        var json: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write one CSV row per job or sweep point to FILE (its swept values, steps, digest).", valueName: "FILE"
            ))
        var csv: String?

        @Flag(
            name: .long,
            help:
                "Let a manifest's job write its trace outside the manifest's folder (an absolute path, or one through '..' or a symbolic link). Without it such a manifest is refused (exit 2)."
        )
        var allowOutputsOutside = false

        func validate() throws {
            guard (manifest == nil) != (verify == nil) else {
                throw ValidationError(
                    manifest == nil
                        ? "give a manifest, or --verify PATTERN" : "give a manifest or --verify PATTERN, not both")
            }
            if let jobs {
                guard jobs >= 1, jobs <= 1024 else { throw ValidationError("--jobs must be a whole number in 1…1024") }
            }
            for (name, path) in [("--junit", junit), ("--json", json), ("--csv", csv)] where path == "-" {
                throw ValidationError("\(name) needs a file name")
            }
        }

        func run() throws {
            let batch =
                try manifest.map { path throws(InputError) in
                    try BatchManifest.load(path: path, allowOutputsOutside: allowOutputsOutside)
                }
                ?? BatchManifest.verifying(goldens: try BatchGlob.expand(verify ?? ""))
            let selected: BatchShard
            switch BatchShard.parse(shard ?? "0/1", environment: ProcessInfo.processInfo.environment) {
            case .success(let value): selected = value
            case .failure(let error): throw ValidationError(error.description)
            }
            try checkOutputs(batch)
            let all = batch.points()
            let points = all.filter { selected.contains($0.index) }
            InterruptSignal.install()
            let executor = try BatchExecutor(parallel: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            var progress = BatchProgress(total: points.count)
            let (results, interrupted) = try executor.run(points, progress: &progress)
            let summary = BatchSummary(
                manifestSHA256: batch.sha256, shard: selected, jobCount: all.count, jobs: results)
            try BatchOutputs(junit: junit, json: json, csv: csv).write(summary)
            try BatchOutputs.report(results, of: points.count)
            if interrupted { throw ExitCode(ExitStatus.interrupted) }
            throw ExitCode(results.exitStatus)
        }

        /// Refuses an output that is an input of some job (its golden, the scenario and tilt
        /// file the golden's header names, its scenario and that scenario's `tilt.file`),
        /// another output, or missing its folder.
        private func checkOutputs(_ batch: BatchManifest) throws {
            var overwrite = OverwriteCheck()
            overwrite.input(manifest, as: "the manifest")
            for job in batch.jobs { overwrite.batchInputs(of: job) }
            for job in batch.jobs {
                for output in job.outputs { try overwrite.output(output, as: "the trace of job \(job.name)") }
            }
            for (name, path) in [("--junit", junit), ("--json", json), ("--csv", csv)] {
                try OutputFolder.require(path, option: name)
                try overwrite.output(path, as: name)
            }
        }
    }
}

/// `--verify PATTERN`: the golden traces a glob pattern matches, sorted.
enum BatchGlob {
    static func expand(_ pattern: String) throws(InputError) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        let status = glob(pattern, 0, nil, &matches)
        guard status == 0 else {
            throw InputError(
                file: pattern,
                reason: status == GLOB_NOMATCH
                    ? "--verify: no file matches this pattern" : "--verify: cannot expand this pattern")
        }
        var paths: [String] = []
        for i in 0..<Int(matches.gl_pathc) {
            if let path = matches.gl_pathv[i] { paths.append(String(cString: path)) }
        }
        return paths.sorted()
    }
}

/// Writes a batch's result files (atomically, each complete or absent) and its report.
struct BatchOutputs {
    var junit: String?
    var json: String?
    var csv: String?

    func write(_ summary: BatchSummary) throws {
        if let json { try OutputFile.write(Array(summary.jsonText().utf8), to: json) }
        if let junit { try OutputFile.write(Array(BatchReports.junit(summary.jobs).utf8), to: junit) }
        if let csv { try OutputFile.write(Array(BatchReports.csv(summary.jobs).utf8), to: csv) }
    }

    /// One line per job that did not pass, then the counts, on standard output.
    static func report(_ results: [BatchJobResult], of total: Int) throws {
        for result in results where result.status != .passed {
            let detail = result.firstDivergence ?? result.message ?? ""
            try Console.out("\(result.name): \(result.status.rawValue)\(detail.isEmpty ? "" : ": \(detail)")")
        }
        let counts = BatchJobResult.Status.allCases.map { "\(results.count($0)) \($0.rawValue)" }.joined(
            separator: ", ")
        let unfinished = total - results.count
        try Console.out(
            "batch: \(PeopleText.count(total, "job")): \(counts)\(unfinished > 0 ? ", \(unfinished) not finished (interrupted)" : "")"
        )
    }
}
