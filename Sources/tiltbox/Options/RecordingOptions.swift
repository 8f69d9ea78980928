import ArgumentParser
@_spi(Tools) import Tiltbox

/// Options shared by `run` and `verify`: how often to record and how long to run.
struct RecordingOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Record every K-th step (step 0 and the last are always recorded).", valueName: "K"))
    var every: Int = 1

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Simulated seconds to run instead of the scenario's duration.", valueName: "S"))
    var duration: Double?

    func validate() throws {
        guard every >= 1 else { throw ValidationError("--every must be a whole number ≥ 1") }
        if let duration {
            guard duration.isFinite, duration > 0, duration <= ScenarioLoader.limits.maxDuration else {
                throw ValidationError(
                    "--duration must be a number of seconds in (0, \(Int(ScenarioLoader.limits.maxDuration))]")
            }
        }
    }

    func runOptions(
        for scenario: Scenario, frames: FrameProfile = .steady(hz: 60), realtime: Bool = false, fps: Double = 60
    ) throws -> RunOptions {
        var steps: Int?
        if let duration {
            let count = scenario.timestep.steps(in: duration)
            guard count >= 1, count <= Double(ScenarioLoader.limits.maxTotalSteps) else {
                throw ValidationError(
                    "--duration \(duration) gives \(count) steps at \(scenario.timestep.hz) Hz; the limit is 1 to \(ScenarioLoader.limits.maxTotalSteps)"
                )
            }
            steps = Int(count)
        }
        return RunOptions(every: every, totalSteps: steps, frames: frames, realtime: realtime, fps: fps)
    }
}
