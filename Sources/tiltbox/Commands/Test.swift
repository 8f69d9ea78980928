import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox test`: run every scenario that states expectations, headless and in parallel
    /// child processes (the batch machinery), and report each expectation.
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Run every scenario with expectations (\"expect\") under the files and folders given, in parallel (exit 0 all hold, 1 one fails, 2 bad input).",
            discussion: """
                Folders are searched recursively for scenario files (tiltbox-scenario/1) with an "expect" key; hidden \
                files and folders are skipped. Each scenario runs headless in its own child tiltbox, --jobs at a time, \
                and checks its expectations on every step. A failing expectation prints one line (the file, expect[i] \
                and its name, the time and step of its first failure, the body, the value and the bound).
                Exit status: 1 when an expectation fails or a run fails or crashes; else 2 when a scenario is invalid; \
                else 0. 130/143 when interrupted.
                """)

        @Argument(help: "Scenario files and folders (default: the current folder, recursively).")
        var paths: [String] = []

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Scenarios run at a time (default: the number of cores).", valueName: "N"))
        var jobs: Int?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Run only shard K of N (the scenarios whose index modulo N is K, counting from 0), or 'auto' to read K and N from Slurm, Kubernetes or GNU parallel.",
                valueName: "K/N|auto"))
        var shard: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write the results as JUnit XML to FILE (one test case per expectation).", valueName: "FILE"))
        var junit: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write the results as a JSON summary (tiltbox-batch-result/1) to FILE.", valueName: "FILE"))
        var json: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "For each expectation that fails, write an SVG film strip around its failing step into DIR.",
                valueName: "DIR"))
        var pictures: String?

        @OptionGroup var overrideOptions: OverrideOptions

        func validate() throws {
            if let jobs {
                guard jobs >= 1, jobs <= 1024 else { throw ValidationError("--jobs must be a whole number in 1…1024") }
            }
            for (name, path) in [("--junit", junit), ("--json", json), ("--pictures", pictures)] where path == "-" {
                throw ValidationError("\(name) needs a file name")
            }
        }

        func run() throws {
            // Each --set is checked here (exit 2 with its message) and handed to every run as given.
            _ = try overrideOptions.overrides()
            let scenarios = try ScenarioDiscovery.scenarios(in: paths.isEmpty ? ["."] : paths)
            guard !scenarios.isEmpty else {
                throw InputError(
                    file: paths.isEmpty ? "." : paths.joined(separator: " "),
                    reason: "no scenario with \"expect\" found: nothing to test")
            }
            let selected: BatchShard
            switch BatchShard.parse(shard ?? "0/1", environment: ProcessInfo.processInfo.environment) {
            case .success(let value): selected = value
            case .failure(let error): throw ValidationError(error.description)
            }
            for (name, path) in [("--junit", junit), ("--json", json)] { try OutputFolder.require(path, option: name) }
            try checkOutputs(scenarios)
            if let pictures { try PictureFolder.prepare(pictures) }
            let sets = overrideOptions.set.flatMap { ["--set", $0] }
            let batch = BatchManifest(
                jobs: scenarios.map { path in
                    var job = BatchJob(name: path, kind: .run(scenario: path))
                    job.options = sets + (pictures.map { ["--pictures", $0] } ?? [])
                    return job
                },
                sha256: ScenarioDiscovery.listSHA256(scenarios))
            let all = batch.points()
            let points = all.filter { selected.contains($0.index) }
            InterruptSignal.install()
            let executor = try BatchExecutor(parallel: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            var progress = BatchProgress(total: points.count)
            let (results, interrupted) = try executor.run(points, progress: &progress)
            let summary = BatchSummary(
                manifestSHA256: batch.sha256, shard: selected, jobCount: all.count, jobs: results)
            if let json { try OutputFile.write(Array(summary.jsonText().utf8), to: json) }
            if let junit {
                try OutputFile.write(
                    Array(BatchReports.junit(results, suite: "tiltbox test", perExpectation: true).utf8), to: junit)
            }
            try report(results, of: points.count)
            if interrupted { throw ExitCode(ExitStatus.interrupted) }
            throw ExitCode(results.exitStatus)
        }

        /// Refuses, before any scenario runs, a --junit or --json that is a file the tests read (a
        /// scenario, its tilt file) or the other result file, and a picture --pictures would write
        /// over one of them (exit 2): the round-three check of `batch` and `run`, by device and inode.
        private func checkOutputs(_ scenarios: [String]) throws {
            var overwrite = OverwriteCheck()
            var expectationCounts: [Int] = []
            for path in scenarios {
                overwrite.input(path, as: "a scenario tested")
                // A scenario that does not load is reported by its run; its pictures are not written.
                let scenario = try? ScenarioLoader.load(path: path)
                if let tilt = scenario?.tilt?.file {
                    for file in TiltFile.inputFiles(path: tilt) {
                        overwrite.input(file, as: "the tilt file of \(path)")
                    }
                }
                expectationCounts.append(scenario?.expectations.count ?? 0)
            }
            try overwrite.output(junit, as: "--junit")
            try overwrite.output(json, as: "--json")
            guard let pictures else { return }
            for (path, count) in zip(scenarios, expectationCounts) {
                for index in 0..<count {
                    try overwrite.output(
                        FailurePictures.path(folder: pictures, label: path, index: index),
                        as: "--pictures (the picture of \(path) expect[\(index)])")
                }
            }
        }

        /// Each failing expectation's line (or a run's error), then the counts, on standard output.
        private func report(_ results: [BatchJobResult], of total: Int) throws {
            var expectations = 0
            var holding = 0
            for result in results {
                expectations += result.expectations.count
                holding += result.expectations.reduce(0) { $0 + ($1.holds ? 1 : 0) }
                let failing = result.expectations.filter { $0.line != nil }
                for expectation in failing {
                    try Console.out(expectation.line ?? "\(result.name): \(expectation.label) failed")
                }
                if failing.isEmpty, result.status != .passed {
                    try Console.out(
                        "\(result.name): \(result.status.rawValue): \(result.message ?? "exit \(result.exit.map(String.init) ?? "?")")"
                    )
                }
            }
            let runs = results.count(.passed)
            let unfinished = total - results.count
            try Console.out(
                "test: \(PeopleText.count(total, "scenario")), \(PeopleText.count(expectations, "expectation")): "
                    + "\(holding) hold, \(expectations - holding) fail; \(runs) of \(total) runs passed"
                    + (unfinished > 0 ? ", \(unfinished) not finished (interrupted)" : ""))
        }
    }
}

/// The folder `--pictures` writes into: created when missing (its parent must exist).
enum PictureFolder {
    static func prepare(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw InputError(file: path, reason: "--pictures: not a folder") }
            return
        }
        guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
            throw InputError(
                file: path, reason: "--pictures: cannot create this folder: \(String(cString: strerror(errno)))")
        }
    }
}
