import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox run`: run a scenario headless, optionally writing a trace.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a scenario (the built-in default when none is given).",
            discussion: """
                Without --trace, prints a summary: steps, simulated time, dropped time, wall time, steps/s and the digest.
                With --trace FILE, writes a JSON-lines trace; --trace - writes it to standard output (the summary then goes to standard error).
                With --html FILE, runs headless and then renders the trace as a self-contained HTML player (as tiltbox render --html); without --trace the trace goes to a temporary file, deleted afterwards.
                """)

        @Argument(help: "Scenario file (JSON). Omit it to run the built-in default scenario.")
        var scenario: String?

        @Option(name: .long, help: ArgumentHelp("Write a JSON-lines trace to FILE, or to standard output with '-'.", valueName: "FILE"))
        var trace: String?

        @Option(name: .long, help: ArgumentHelp("After the run, write a self-contained HTML player of its trace to FILE (runs headless).", valueName: "FILE"))
        var html: String?

        @OptionGroup var recording: RecordingOptions

        @OptionGroup var tiltOptions: TiltOptions

        @Option(name: .long, help: ArgumentHelp("Frame clock feeding the accumulator: steady:HZ, jitter:HZ:SEED, stall:HZ:AT:SECONDS or file:PATH. Physics is the same whatever the profile.", valueName: "PROFILE"))
        var frames: String = "steady:60"

        @Flag(name: .long, help: "Pace frames on the monotonic clock like a display link (--fps per second).")
        var realtime = false

        @Option(name: .long, help: ArgumentHelp("Frames per second for --realtime.", valueName: "FPS"))
        var fps: Double = 60

        @Option(name: .long, help: ArgumentHelp("auto: the live terminal view when standard output is a terminal, else a summary; terminal: the live view (refused when not a terminal); none: headless with a summary.", valueName: "VIEW"))
        var view: ViewChoice = .auto

        @Flag(name: .long, help: "In the live view, the left and right arrow keys turn gravity by 5° per press.")
        var interactive = false

        func validate() throws {
            guard fps.isFinite, fps > 0, fps <= 1000 else { throw ValidationError("--fps must be a number in (0, 1000]") }
            if html != nil {
                guard trace != "-" else { throw ValidationError("--html reads the trace back after the run: write it to a file, not to standard output") }
                guard view != .terminal else { throw ValidationError("--html runs headless: it cannot be combined with --view terminal") }
            }
        }

        func run() throws {
            let loaded = try ScenarioSource.load(scenario)
            loaded.printWarnings()
            if html == nil, try view.showsTerminal(trace: trace) {
                let tilt = tiltOptions.gravityInput
                let live = try LiveSession.options(
                    for: loaded.scenario, recording: recording, fps: fps, trace: trace, interactive: interactive,
                    orientation: tilt.orientation, g: tilt.g)
                let result = try LiveSession.run(scenario: loaded.scenario, options: live, gravity: tilt)
                try LiveSession.exit(for: result)
                return
            }
            let profile = try FrameProfile.parse(frames)
            let options = try recording.runOptions(for: loaded.scenario, frames: profile, realtime: realtime, fps: fps)
            let gravity = try tiltOptions.gravityInput.resolve(for: loaded.scenario)
            InterruptSignal.install()
            // --html without --trace: the trace goes to a temporary file, deleted after rendering.
            let temporaryTrace = html != nil && trace == nil
                ? FileManager.default.temporaryDirectory.appendingPathComponent("tiltbox-run-\(getpid())-\(UUID().uuidString).jsonl").path
                : nil
            defer { if let temporaryTrace { try? FileManager.default.removeItem(atPath: temporaryTrace) } }
            let tracePath = trace ?? temporaryTrace
            let report = try HeadlessRun.execute(
                scenario: loaded.scenario, track: gravity.track, options: options, tracePath: tracePath,
                tiltName: gravity.tilt?.source)
            let summaryToStdout = trace != "-"
            if summaryToStdout {
                report.printSummary(scenarioLabel: loaded.label, to: Console.out)
            } else {
                report.printSummary(scenarioLabel: loaded.label, to: Console.error)
            }
            if let html, let tracePath {
                try TraceRendering.writeHTML(scene: try TraceRendering.scene(tracePath: tracePath), to: html)
            }
            try report.exitIfNotComplete()
        }
    }
}

/// `--view` choices.
enum ViewChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, terminal, none

    /// Whether to show the live view: `auto` when standard input and output are
    /// terminals and the trace does not go to standard output.
    func showsTerminal(trace: String?) throws -> Bool {
        switch self {
        case .none:
            return false
        case .auto:
            return Terminal.isInteractive && trace != "-"
        case .terminal:
            guard Terminal.isInteractive else {
                throw InputError(file: "--view", reason: "the terminal view needs standard input and output to be a terminal (use --view none, or run it in a terminal)")
            }
            guard trace != "-" else {
                throw InputError(file: "--view", reason: "--trace - writes to standard output, which the terminal view draws on; write the trace to a file")
            }
            return true
        }
    }
}

/// Options shared by `run` and `verify`: how often to record and how long to run.
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Record every K-th step (step 0 and the last are always recorded).", valueName: "K"))
    var every: Int = 1

    @Option(name: .long, help: ArgumentHelp("Simulated seconds to run instead of the scenario's duration.", valueName: "S"))
    var duration: Double?

    func validate() throws {
        guard every >= 1 else { throw ValidationError("--every must be a whole number ≥ 1") }
        if let duration {
            guard duration.isFinite, duration > 0, duration <= ScenarioLoader.limits.maxDuration else {
                throw ValidationError("--duration must be a number of seconds in (0, \(Int(ScenarioLoader.limits.maxDuration))]")
            }
        }
    }

    func runOptions(for scenario: Scenario, frames: FrameProfile = .steady(hz: 60), realtime: Bool = false, fps: Double = 60) throws -> RunOptions {
        var steps: Int?
        if let duration {
            let count = (duration * scenario.timestep.hz).rounded()
            guard count >= 1, count <= Double(ScenarioLoader.limits.maxTotalSteps) else {
                throw ValidationError("--duration \(duration) gives \(count) steps at \(scenario.timestep.hz) Hz; the limit is 1 to \(ScenarioLoader.limits.maxTotalSteps)")
            }
            steps = Int(count)
        }
        return RunOptions(every: every, totalSteps: steps, frames: frames, realtime: realtime, fps: fps)
    }
}
