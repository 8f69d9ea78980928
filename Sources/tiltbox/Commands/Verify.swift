import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox verify`: re-run what a reference trace describes and compare, for CI.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Re-run what a reference trace records and diff it against the trace (exit 0 identical, 1 differ, 2 the trace does not describe the run).",
            discussion: """
                The scenario, tilt input and tilt options (--orientation, --interpolate, --g, --convention) come from the reference's header; paths in it are relative to the trace file's folder. Options given here override them.
                The header's scenario overrides (source.overrides, from run --set) are applied again; a --set given here replaces the header's for the same PATH, and the others are applied after the header's, in the order given.
                A hash golden (run --hashes) is compared record by record on hashes; at the first record whose hash differs, verify prints the commands that show its fields. A trace written before headers recorded their source needs the scenario named.
                The run records at the reference's interval (its header's 'every') for as many steps as the reference ran, writes a temporary trace through the same writer as 'run --trace', reads it back and compares bit for bit. Frame timing does not matter: physics is a pure function of scenario and gravity input.
                When the reference is of another scenario, or other bodies, fields, dt or every, verify says so in one line and exits 2.
                """)

        @Argument(help: "Scenario file (JSON). Default: the scenario the reference trace's header records.")
        var scenario: String?

        @Option(name: .long, help: ArgumentHelp("The reference trace to compare against.", valueName: "TRACE"))
        var against: String

        @OptionGroup var tiltOptions: TiltOptions

        @OptionGroup var overrideOptions: OverrideOptions

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Treat values within X of each other as equal.", valueName: "X"))
        var tolerance: Double = 0

        func validate() throws {
            guard tolerance.isFinite, tolerance >= 0 else {
                throw ValidationError("--tolerance must be a finite number ≥ 0")
            }
            if tiltOptions.isLive {
                throw ValidationError(
                    "verify re-runs a recorded input: give the CSV a live run wrote (--tilt FILE), not --tilt \(tiltOptions.tilt ?? "")"
                )
            }
        }

        func run() throws {
            // A first pass over the reference, one record at a time, finds how far it ran.
            let scan = try TraceStream(path: against, verifyDigest: false)
            let overrides = ReferenceReplay.Overrides(
                tilt: tiltOptions.tilt, orientation: tiltOptions.orientation, interpolate: tiltOptions.interpolate,
                g: tiltOptions.g, convention: tiltOptions.convention, set: try overrideOptions.overrides())
            let replay = try ReferenceReplay.plan(
                reference: scan.header, tracePath: against,
                scenarioPath: scenario, overrides: overrides)
            if let mismatch = replay.mismatch() {
                try Console.error("tiltbox: \(mismatch)")
                throw ExitCode(ExitStatus.badInput)
            }
            var lastStep: Int?
            while let record = try scan.next() { lastStep = record.step }
            let steps = scan.end?.steps ?? lastStep ?? replay.scenario.totalSteps
            guard steps >= 1, steps <= ScenarioLoader.limits.maxTotalSteps else {
                throw InputError(file: against, reason: "the reference trace ran \(steps) steps; cannot re-run that")
            }
            let options = RunOptions(every: max(scan.header.every, 1), totalSteps: steps)
            let plan = replay.plan
            let gravity = try plan.resolve()
            let temporary = FileManager.default.temporaryDirectory
                .appendingPathComponent("tiltbox-verify-\(getpid())-\(UInt64(RealTimeClock.now() * 1e6)).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            InterruptSignal.install()
            // The temporary trace records no source: it is compared on its records.
            let run = try HeadlessRun.execute(plan, gravity, options: options, tracePath: temporary, source: nil)
            if case .interrupted = run.summary.outcome { throw ExitCode(ExitStatus.interrupted) }
            let thisRun = FieldsHint.Rerun(
                scenario: replay.scenarioPath, input: replay.input, overrides: replay.overrides)
            let dt = replay.scenario.timestep.dt
            try TraceVerdict.report(
                tolerance: tolerance, sides: .verify,
                notes: { replay.divergenceNotes(tilt: gravity.tilt) },
                hashNotes: { step, time in
                    FieldsHint.lines(
                        step: step, time: time, dt: dt,
                        a: .recorded(in: scan.header, tracePath: against), b: thisRun,
                        aName: "reference", bName: "this-run",
                        aWhere: "   (where the reference was recorded)",
                        bWhere: "   (here)")
                }
            ) {
                (
                    try TraceStream(path: against, verifyDigest: false),
                    try TraceStream(path: temporary, verifyDigest: true)
                )
            }
        }
    }
}
