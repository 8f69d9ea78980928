import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

/// Runs the live terminal view for `run` and `record` and maps its end to an exit status.
enum LiveSession {
    /// The view's options from the shared command-line options. The live track's
    /// orientation and g resolve as a replay's would: the option, else the scenario's
    /// `tilt`, else portrait and the length of `world.gravity`.
    static func options(for scenario: Scenario, recording: RecordingOptions, fps: Double, trace: String?,
                        interactive: Bool, orientation: Orientation?, g: Double?) throws -> LiveViewOptions {
        var live = LiveViewOptions()
        live.fps = fps
        live.every = recording.every
        live.totalSteps = try recording.runOptions(for: scenario).totalSteps
        live.tracePath = trace
        live.interactive = interactive
        live.tiltOrientation = orientation ?? scenario.tilt?.orientation ?? .portrait
        live.tiltG = g ?? scenario.tilt?.g ?? scenario.world.gravity.length
        live.colour = ColourPolicy.allowsColour(environment: ProcessInfo.processInfo.environment)
        return live
    }

    /// Runs the view; `scenarioPath` (`nil`: built in) is recorded in the trace header.
    static func run(scenario: Scenario, options: LiveViewOptions, gravity: GravityInput,
                    scenarioPath: String?, overrides: [ScenarioOverride] = []) throws -> LiveResult {
        // Resolve the tilt input once up front, so a bad file is reported before the
        // screen switches, and again on each restart.
        let first = try gravity.resolve(for: scenario)
        var options = options
        options.traceSource = TraceHeader.Source.describing(scenarioPath: scenarioPath, scenario: scenario,
                                                            input: gravity, tilt: first.tilt)
        options.traceSource?.overrides = overrides.map(TraceHeader.Source.Override.init)
        InterruptSignal.install()
        let terminal = Terminal()
        let view = try LiveView(scenario: scenario, options: options, terminal: terminal) {
            try gravity.resolve(for: scenario).track
        }
        return try view.run()
    }

    /// Prints a one-line summary after the view closes (unless `quiet`); Ctrl-C exits 130,
    /// SIGTERM 143, a divergence 1.
    static func exit(for result: LiveResult, quiet: Bool = false) throws {
        let s = result.summary
        if !quiet {
            try Console.error("tiltbox: \(PeopleText.count(s.steps, "step")), \(PeopleText.number(s.simulatedTime)) s simulated, "
                          + "\(PeopleText.number(s.droppedTime)) s dropped, digest \(s.digest)")
        }
        if let line = s.engineDiagnostics.summary { try Console.error("tiltbox: note: \(line)") }
        switch result.outcome {
        case .diverged(let step, let divergence):
            try Console.error("tiltbox: simulation failed at step \(step) (t = \(PeopleText.number(s.simulatedTime)) s): \(divergence)")
            throw ExitCode(ExitStatus.failure)
        case .interrupted where !result.quitByKey:
            throw ExitCode(ExitStatus.interrupted)
        default:
            return
        }
    }
}
