import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

/// A headless run as the command line shows it: progress on standard error when it is a
/// terminal, a summary at the end, and the exit status the outcome calls for.
struct HeadlessRun {
    var summary: RunSummary

    /// Runs to the end, calling `onFrame` after each frame (a live tilt source applies its
    /// newest sample there). A trace that cannot be written is thrown as `TraceWriteError`
    /// (exit 141 for a closed pipe, else 1 with its message; see `ExitStatus.afterWriteFailure`).
    static func execute(
        _ plan: RunPlan, _ resolved: RunPlan.Resolved, options: RunOptions, tracePath: String?,
        source: TraceHeader.Source?, sinks: [any RecordSink] = [],
        onFrame: (RunSession) -> Void = { _ in }
    ) throws -> HeadlessRun {
        var progress = ProgressLine(enabled: Console.standardErrorIsTerminal, now: RealTimeClock.now())
        let summary: RunSummary
        do {
            summary = try plan.runHeadless(
                resolved, options: options, tracePath: tracePath, source: source,
                progress: { session in
                    onFrame(session)
                    progress.update(
                        step: session.stepCount, of: session.totalSteps,
                        simulatedTime: session.simulatedTime, now: RealTimeClock.now)
                },
                sinks: sinks)
        } catch let error as RunFailure {
            try? progress.clear()
            if let writeError = error.writeError { throw writeError }
            try Console.error("tiltbox: \(error)")
            throw ExitCode(ExitStatus.failure)
        } catch {
            try? progress.clear()
            throw error
        }
        try progress.finish()
        return HeadlessRun(summary: summary)
    }

    func printSummary(scenarioLabel: String, to print: (String) throws -> Void) throws {
        let s = summary
        let outcome: String
        switch s.outcome {
        case .complete: outcome = "complete"
        case .interrupted: outcome = "interrupted"
        case .diverged: outcome = "error"
        }
        try print("scenario:       \(scenarioLabel)")
        try print("outcome:        \(outcome)")
        try print("steps:          \(s.steps) of \(s.totalSteps) (\(PeopleText.count(s.frames, "frame")))")
        try print("simulated time: \(PeopleText.number(s.simulatedTime)) s")
        try print("dropped time:   \(PeopleText.number(s.droppedTime)) s")
        try print(String(format: "wall time:      %.3f s", s.wallTime))
        try print(String(format: "steps/s:        %.0f", s.stepsPerSecond))
        if let bytes = s.traceBytes {
            try print(
                "trace:          \(PeopleText.count(bytes, "byte")), \(PeopleText.count(s.records, "record")) (\(s.steps > 0 ? bytes / max(s.records, 1) : bytes) bytes/record)"
            )
        }
        try print("digest:         \(s.digest)")
    }

    /// Exits 1 after a divergence (naming step and body), 130 after Ctrl-C and 143 after SIGTERM.
    /// First prints, once, a summary of what Chipmunk printed during the run (kept off standard error meanwhile).
    func exitIfNotComplete() throws {
        if let line = summary.engineDiagnostics.summary { try Console.error("tiltbox: note: \(line)") }
        switch summary.outcome {
        case .complete:
            return
        case .interrupted:
            throw ExitCode(ExitStatus.interrupted)
        case .diverged(let step, let divergence):
            try Console.error(
                "tiltbox: simulation failed at step \(step) (t = \(PeopleText.number(summary.simulatedTime)) s): \(divergence)"
            )
            throw ExitCode(ExitStatus.failure)
        }
    }
}
