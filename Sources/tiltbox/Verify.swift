import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox verify`: re-run a scenario and compare with a reference trace, for CI.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-run a scenario and diff it against a reference trace (exit 0 identical, 1 differ).",
            discussion: """
                The run records at the reference's interval (its header's 'every') for as many steps as the reference
                ran, writes a temporary trace through the same writer as 'run --trace', reads it back and compares
                bit for bit. Frame timing does not matter: physics is a pure function of scenario and gravity input.
                """)

        @Argument(help: "Scenario file (JSON).")
        var scenario: String

        @Option(name: .long, help: ArgumentHelp("The reference trace to compare against.", valueName: "TRACE"))
        var against: String

        @OptionGroup var tiltOptions: TiltOptions

        @Option(name: .long, help: ArgumentHelp("Treat values within X of each other as equal.", valueName: "X"))
        var tolerance: Double = 0

        func validate() throws {
            guard tolerance.isFinite, tolerance >= 0 else { throw ValidationError("--tolerance must be a finite number ≥ 0") }
        }

        func run() throws {
            let loaded = try ScenarioSource.load(scenario)
            // A first pass over the reference, one record at a time, finds how far it ran.
            let scan = try TraceStream(path: against, verifyDigest: false)
            var lastStep: Int?
            while let record = try scan.next() { lastStep = record.step }
            let steps = scan.end?.steps ?? lastStep ?? loaded.scenario.totalSteps
            guard steps >= 1, steps <= ScenarioLoader.limits.maxTotalSteps else {
                throw InputError(file: against, reason: "the reference trace ran \(steps) steps; cannot re-run that")
            }
            let options = RunOptions(every: max(scan.header.every, 1), totalSteps: steps)
            let gravity = try tiltOptions.gravityInput.resolve(for: loaded.scenario)
            let temporary = FileManager.default.temporaryDirectory
                .appendingPathComponent("tiltbox-verify-\(getpid())-\(UInt64(RealTimeClock.now() * 1e6)).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            InterruptSignal.install()
            let run = try HeadlessRun.execute(scenario: loaded.scenario, track: gravity.track, options: options,
                                              tracePath: temporary, tiltName: gravity.tilt?.source)
            if case .interrupted = run.summary.outcome { throw ExitCode(ExitStatus.interrupted) }
            let reference = try TraceStream(path: against, verifyDigest: false)
            let rerun = try TraceStream(path: temporary, verifyDigest: true)
            try TraceVerdict.report(TraceDiff.compare(reference, rerun, tolerance: tolerance))
        }
    }
}
