import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox record`: steer gravity live with the arrow keys and save it as a tilt file.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the live view with arrow keys tilting gravity, and write the tilt applied as a Tiltbox CSV.",
            discussion: """
                The CSV's sample times are the physics step times where gravity changed, in the scenario's orientation \
                and g, so 'tiltbox run SCENARIO --tilt OUT --trace replay.jsonl' reproduces the live trace bit for bit \
                (let the run reach its end: a run quit early ends 'interrupted' and is shorter than the replay).
                """)

        @Argument(help: "Scenario file (JSON).")
        var scenario: String

        @Option(name: .long, help: ArgumentHelp("Where to write the recorded tilt (Tiltbox CSV).", valueName: "FILE"))
        var out: String

        @Option(name: .long, help: ArgumentHelp("Also write the live run's trace to FILE.", valueName: "FILE"))
        var trace: String?

        @OptionGroup var recording: RecordingOptions

        @Option(name: .long, help: ArgumentHelp("How the device is held; the samples are written in this frame. Default: the scenario's, else portrait.", valueName: "O"))
        var orientation: Orientation?

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("World units per 1 g. Default: the scenario's tilt.g, else the length of world.gravity.", valueName: "G"))
        var g: Double?

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Display frames per second.", valueName: "FPS"))
        var fps: Double = 60

        @Flag(name: .long, help: "Close the view by itself when the run reaches its end.")
        var exitAtEnd = false

        func validate() throws {
            guard fps.isFinite, fps > 0, fps <= 1000 else { throw ValidationError("--fps must be a number in (0, 1000]") }
            if let g { guard g.isFinite, g > 0, g <= ScenarioLoader.limits.maxGravity else { throw ValidationError("--g must be a number in (0, 1000000]") } }
            guard trace != "-" else { throw ValidationError("--trace - is not available while the terminal view draws on standard output") }
        }

        func run() throws {
            try OutputFolder.require(out, option: "--out")
            try OutputFolder.require(trace, option: "--trace")
            let loaded = try ScenarioSource.load(scenario)
            var overwrite = OverwriteCheck()
            overwrite.runInputs(scenarioPath: scenario, scenario: loaded.scenario, gravity: GravityInput())
            try overwrite.output(out, as: "--out")
            try overwrite.output(trace, as: "--trace")
            guard Terminal.isInteractive else {
                throw InputError(file: "record", reason: "recording needs the terminal view: standard input and output must be a terminal")
            }
            var live = try LiveSession.options(for: loaded.scenario, recording: recording, fps: fps, trace: trace,
                                               interactive: true, orientation: orientation, g: g)
            live.exitAtEnd = exitAtEnd
            let result = try LiveSession.run(scenario: loaded.scenario, options: live, gravity: GravityInput(), scenarioPath: scenario)
            if let track = result.liveTrack {
                let comment = """
                    recorded by tiltbox record from \(loaded.label) (\(result.summary.steps) steps)
                    orientation \(live.tiltOrientation.rawValue), g \(NumberFormat.shortest(live.tiltG)); replay: tiltbox run \(scenario) --tilt \(out)\(orientation.map { " --orientation \($0.rawValue)" } ?? "")\(g.map { " --g \(NumberFormat.shortest($0))" } ?? "")
                    """
                // Written whole or not at all (a temporary file renamed into place); a
                // failure is an `OutputFileError`, exit 1 with its message.
                try OutputFile.write(Array(track.csv(comment: comment).utf8), to: out)
                try Console.error("tiltbox: wrote \(track.samples.count) tilt samples to \(out)")
            }
            try LiveSession.exit(for: result)
        }
    }
}
