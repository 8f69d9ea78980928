import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

/// Runs the live terminal view for `run` and `record` and maps its end to an exit status.
enum LiveSession {
    /// The view's options from the shared command-line options; `frame` is the live
    /// track's orientation and g (`TiltFrame.resolve`, as a replay's would be).
    static func options(
        for plan: RunPlan, recording: RecordingOptions, fps: Double, trace: String?,
        interactive: Bool, frame: TiltFrame
    ) throws -> LiveViewOptions {
        var live = LiveViewOptions()
        live.fps = fps
        live.every = recording.every
        live.totalSteps = try recording.runOptions(for: plan.scenario).totalSteps
        live.tracePath = trace
        live.interactive = interactive
        live.tiltOrientation = frame.orientation
        live.tiltG = frame.g
        live.colour = ColourPolicy.allowsColour(environment: ProcessInfo.processInfo.environment)
        return live
    }

    /// Runs the view of `plan`; `liveTrack` makes the track of a live `--tilt` source
    /// (`options.feed`) for each run, `nil` for none.
    static func run(
        _ plan: RunPlan, options: LiveViewOptions,
        liveTrack: @escaping @Sendable () -> LiveTiltTrack? = { nil }
    ) throws -> LiveResult {
        var options = options
        if options.feed == nil {
            // Resolve the tilt input once up front, so a bad file is reported before the
            // screen switches, and again on each restart.
            let first = try plan.resolve()
            options.traceSource = plan.source(first)
        }
        InterruptSignal.install()
        // With `--tilt -` standard input carries the samples: the keys come from /dev/tty.
        let terminal =
            options.keysFromControllingTerminal
            ? (Terminal.readingKeysFromControllingTerminal() ?? Terminal()) : Terminal()
        let view = try LiveView(
            scenario: plan.scenario, options: options, terminal: terminal, makeLiveTrack: liveTrack
        ) {
            try plan.makeTrack()
        }
        return try view.run()
    }

    /// Prints a one-line summary after the view closes (unless `quiet`); Ctrl-C exits 130,
    /// SIGTERM 143, a divergence 1.
    static func exit(for result: LiveResult, quiet: Bool = false) throws {
        let s = result.summary
        if !quiet {
            try Console.error(
                "tiltbox: \(PeopleText.count(s.steps, "step")), \(PeopleText.number(s.simulatedTime)) s simulated, "
                    + "\(PeopleText.number(s.droppedTime)) s dropped, digest \(s.digest)")
        }
        if let line = s.engineDiagnostics.summary { try Console.error("tiltbox: note: \(line)") }
        switch result.outcome {
        case .diverged(let step, let divergence):
            try Console.error(
                "tiltbox: simulation failed at step \(step) (t = \(PeopleText.number(s.simulatedTime)) s): \(divergence)"
            )
            throw ExitCode(ExitStatus.failure)
        case .interrupted where !result.quitByKey:
            throw ExitCode(ExitStatus.interrupted)
        default:
            return
        }
    }
}
