import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox batch-merge`: one result from the JSON summaries of a batch's shards.
    struct BatchMerge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch-merge",
            abstract:
                "Merge the --json summaries of a sharded batch into one result (exit status as the whole batch's).",
            discussion: """
                Every shard of one manifest must be given once: shards of different manifests (their manifestSHA256 differs), a missing shard or a shard given twice are refused (exit 2). The merged summary has shard [0, 1] and the jobs in manifest order, as an unsharded batch would write it.
                """)

        @Argument(help: "The shard summaries (tiltbox batch --json).")
        var summaries: [String] = []

        @Option(name: .long, help: ArgumentHelp("Write the merged results as JUnit XML to FILE.", valueName: "FILE"))
        var junit: String?

        @Option(name: .long, help: ArgumentHelp("Write the merged JSON summary to FILE.", valueName: "FILE"))
        var json: String?

        @Option(name: .long, help: ArgumentHelp("Write the merged CSV to FILE.", valueName: "FILE"))
        var csv: String?

        func validate() throws {
            guard !summaries.isEmpty else { throw ValidationError("give the shard summaries to merge") }
        }

        func run() throws {
            var overwrite = OverwriteCheck()
            for path in summaries { overwrite.input(path, as: "a shard summary") }
            for (name, path) in [("--junit", junit), ("--json", json), ("--csv", csv)] {
                try OutputFolder.require(path, option: name)
                try overwrite.output(path, as: name)
            }
            var parts: [(path: String, summary: BatchSummary)] = []
            for path in summaries { parts.append((path, try BatchSummary.load(path: path))) }
            let merged = try BatchSummary.merge(parts)
            try BatchOutputs(junit: junit, json: json, csv: csv).write(merged)
            try BatchOutputs.report(merged.jobs, of: merged.jobCount)
            throw ExitCode(merged.jobs.exitStatus)
        }
    }
}
