import ArgumentParser
import Foundation
import Tiltbox

/// A headless run as the command line shows it: progress on standard error when it is a
/// terminal, a summary at the end, and the exit status the outcome calls for.
struct HeadlessRun {
    var summary: RunSummary

    static func execute(scenario: Scenario, track: any GravityTrack, options: RunOptions, tracePath: String?, tiltName: String? = nil,
                        source: TraceHeader.Source? = nil) throws -> HeadlessRun {
        var progress = ProgressLine(enabled: Console.standardErrorIsTerminal, now: RealTimeClock.now())
        defer { progress.clear() }
        do {
            let summary = try ScenarioRunner.run(
                scenario: scenario, track: track, options: options, tracePath: tracePath, tiltName: tiltName, source: source,
                progress: { simulation in
                    progress.update(step: simulation.stepper.stepCount, of: simulation.totalSteps,
                                    simulatedTime: simulation.stepper.simulatedTime, now: RealTimeClock.now())
                })
            return HeadlessRun(summary: summary)
        } catch let error as TraceWriteError {
            progress.clear()
            Console.error("tiltbox: \(error)")
            throw ExitCode(ExitStatus.failure)
        } catch let error as ScenarioRunner.Failure {
            progress.clear()
            Console.error("tiltbox: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
    }

    func printSummary(scenarioLabel: String, to print: (String) -> Void) {
        let s = summary
        let outcome: String
        switch s.outcome {
        case .complete: outcome = "complete"
        case .interrupted: outcome = "interrupted"
        case .diverged: outcome = "error"
        }
        print("scenario:       \(scenarioLabel)")
        print("outcome:        \(outcome)")
        print("steps:          \(s.steps) of \(s.totalSteps) (\(s.frames) frames)")
        print("simulated time: \(NumberFormat.shortest(s.simulatedTime)) s")
        print("dropped time:   \(NumberFormat.shortest(s.droppedTime)) s")
        print(String(format: "wall time:      %.3f s", s.wallTime))
        print(String(format: "steps/s:        %.0f", s.stepsPerSecond))
        if let bytes = s.traceBytes {
            print("trace:          \(bytes) bytes, \(s.records) records (\(s.steps > 0 ? bytes / max(s.records, 1) : bytes) bytes/record)")
        }
        print("digest:         \(s.digest)")
    }

    /// Exits 1 after a divergence (naming step and body) and 130 after an interruption.
    func exitIfNotComplete() throws {
        switch summary.outcome {
        case .complete:
            return
        case .interrupted:
            throw ExitCode(ExitStatus.interrupted)
        case .diverged(let step, let divergence):
            Console.error("tiltbox: simulation failed at step \(step): \(divergence)")
            throw ExitCode(ExitStatus.failure)
        }
    }
}
