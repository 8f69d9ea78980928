import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox record`: steer gravity live with the arrow keys and save it as a tilt file.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the live view with arrow keys tilting gravity, and write the tilt applied as a Tiltbox CSV.",
            discussion: """
                The CSV's sample times are the physics step times where gravity changed, in the scenario's orientation \
                and g. Press q to stop recording: the trace ends 'complete' at the last step taken, and the CSV's first \
                comment is the exact replay command (with --duration for the time reached), whose trace 'tiltbox diff' \
                finds identical to the live one. Ctrl-C still ends the trace 'interrupted'.
                """)

        @Argument(help: "Scenario file (JSON).")
        var scenario: String

        @Option(name: .long, help: ArgumentHelp("Where to write the recorded tilt (Tiltbox CSV).", valueName: "FILE"))
        var out: String

        @Option(name: .long, help: ArgumentHelp("Also write the live run's trace to FILE.", valueName: "FILE"))
        var trace: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Tilt from a live source instead of the arrow keys: phyphox://HOST[:PORT] (a phone's phyphox remote access) or - (a Tiltbox CSV on standard input).",
                valueName: "SOURCE"))
        var tilt: String?

        @OptionGroup var recording: RecordingOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "How the device is held; the samples are written in this frame. Default: the scenario's, else portrait.",
                valueName: "O"))
        var orientation: Orientation?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp(
                "World units per 1 g. Default: the scenario's tilt.g, else the length of world.gravity.", valueName: "G"
            ))
        var g: Double?

        @Option(
            name: .long, parsing: .unconditional, help: ArgumentHelp("Display frames per second.", valueName: "FPS"))
        var fps: Double = 60

        @Flag(name: .long, help: "Close the view by itself when the run reaches its end.")
        var exitAtEnd = false

        func validate() throws {
            try OptionChecks.fps(fps)
            if let g { try OptionChecks.g(g) }
            guard trace != "-" else {
                throw ValidationError("--trace - is not available while the terminal view draws on standard output")
            }
            if let tilt, !(tilt == "-" || tilt.lowercased().hasPrefix("phyphox://")) {
                throw ValidationError(
                    "record --tilt takes a live source, - or phyphox://HOST[:PORT]; a tilt file is replayed with tiltbox run --tilt FILE"
                )
            }
        }

        func run() throws {
            try OutputFolder.require(out, option: "--out")
            try OutputFolder.require(trace, option: "--trace")
            let plan = try RunPlan.load(scenarioPath: scenario)
            var overwrite = OverwriteCheck()
            overwrite.runInputs(scenarioPath: scenario, scenario: plan.scenario, gravity: plan.gravity)
            try overwrite.output(out, as: "--out")
            try overwrite.output(trace, as: "--trace")
            guard Terminal.isInteractive(keysFromControllingTerminal: tilt == "-") else {
                throw InputError(
                    file: "record",
                    reason: "recording needs the terminal view: standard input and output must be a terminal")
            }
            // The samples are written in the orientation and g of the option, else the scenario's.
            let frame = TiltFrame.resolve(orientation: orientation, g: g, for: plan.scenario)
            let liveTilt = try LiveTiltInput.parse(tilt)
            var live = try LiveSession.options(
                for: plan, recording: recording, fps: fps, trace: trace,
                interactive: liveTilt == nil, frame: frame)
            live.exitAtEnd = exitAtEnd
            live.quitCompletes = true
            live.keysFromControllingTerminal = liveTilt == .standardInput
            // A live source is contacted before the screen switches: a wrong address is exit 2.
            let source = try liveTilt.map { try LiveTiltRecording.open($0, plan: plan, frame: frame, fps: fps) }
            if let source {
                live.feed = source.feed
                live.traceSource = plan.liveSource(csv: out, frame: frame)
            }
            let result = try LiveSession.run(plan, options: live) { source?.makeTrack(scenario: plan.scenario) }
            if let source, let track = result.liveTrack {
                try source.finish(
                    track: track, to: out,
                    replay: replayCommand(steps: result.summary.steps, time: result.summary.simulatedTime),
                    summary: result.summary, label: plan.label)
            } else if let track = result.liveTrack {
                let comment = """
                    replay: \(replayCommand(steps: result.summary.steps, time: result.summary.simulatedTime))
                    recorded by tiltbox record from \(plan.label) (\(result.summary.steps) steps, ended \(result.outcome == .complete ? "complete" : "interrupted")); orientation \(live.tiltOrientation.rawValue), g \(NumberFormat.shortest(live.tiltG))
                    """
                // Written whole or not at all (a temporary file renamed into place); a
                // failure is an `OutputFileError`, exit 1 with its message.
                try OutputFile.write(Array(track.csv(comment: comment).utf8), to: out)
                try Console.error("tiltbox: wrote \(track.samples.count) tilt samples to \(out)")
            }
            try LiveSession.exit(for: result)
        }

        /// The command that replays the recording: the same scenario, this CSV, the
        /// options that shape the run, `--duration` for the time reached (0 steps cannot
        /// be replayed: the full duration is left), and, when a live trace was written, a
        /// replay trace beside it to `tiltbox diff` against it.
        func replayCommand(steps: Int, time: Double) -> String {
            var words = ["tiltbox", "run", scenario, "--tilt", out]
            if steps > 0 { words += ["--duration", NumberFormat.shortest(time)] }
            if recording.every != 1 { words += ["--every", String(recording.every)] }
            if let orientation { words += ["--orientation", orientation.rawValue] }
            if let g { words += ["--g", NumberFormat.shortest(g)] }
            if let trace { words += ["--trace", Self.replayTracePath(for: trace)] }
            return words.map(ShellWord.quote).joined(separator: " ")
        }

        /// `live.jsonl` → `live-replay.jsonl`; `live.jsonl.zst` → `live-replay.jsonl.zst`
        /// (compressed like the live trace).
        static func replayTracePath(for trace: String) -> String {
            if trace.hasSuffix(".zst") { return replayTracePath(for: String(trace.dropLast(4))) + ".zst" }
            return trace.hasSuffix(".jsonl") ? String(trace.dropLast(6)) + "-replay.jsonl" : trace + "-replay.jsonl"
        }
    }
}
