import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox run`: run a scenario headless or in the live view, optionally writing a trace.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a scenario (the built-in default when none is given).",
            discussion: """
                On a terminal and without outputs, the run is shown in the live view; with --trace, --html or \
                --summary-json, or off a terminal, it runs headless and prints a summary: steps, simulated time, \
                dropped time, wall time, steps/s and the digest (--quiet leaves it out).
                With --trace FILE, writes a JSON-lines trace; --trace - writes it to standard output (the summary then goes to standard error).
                With --html FILE, renders the trace after the run as a self-contained HTML player (as tiltbox render --html); \
                without --trace the trace goes to a temporary file, deleted afterwards.
                Options that would have no effect (--orientation without a tilt input, --fps on a headless run without \
                --realtime, --interactive on a headless run...) are refused with exit status 2.
                """)

        @Argument(help: "Scenario file (JSON). Omit it to run the built-in default scenario.")
        var scenario: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write a JSON-lines trace to FILE, or to standard output with '-'. Makes the run headless unless --view terminal is given.",
                valueName: "FILE"))
        var trace: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "With a live --tilt (- or phyphox://): write the gravity applied as a Tiltbox CSV to FILE (default: beside the trace, as NAME-tilt.csv for NAME.jsonl, else live-tilt.csv); replaying it gives the same trace.",
                valueName: "FILE"))
        var out: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "After the run, write a self-contained HTML player of its trace to FILE (runs headless).",
                valueName: "FILE"))
        var html: String?

        @Option(
            name: .customLong("summary-json"),
            help: ArgumentHelp(
                "Write the run summary as a JSON object to FILE. Makes the run headless unless --view terminal is given.",
                valueName: "FILE"))
        var summaryJSON: String?

        @Flag(name: [.customShort("q"), .long], help: "Print no summary (errors are still reported).")
        var quiet = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "For each expectation that fails, write an SVG film strip around its failing step into DIR (runs headless).",
                valueName: "DIR"))
        var pictures: String?

        @OptionGroup var recording: RecordingOptions

        @OptionGroup var tiltOptions: TiltOptions

        @OptionGroup var overrideOptions: OverrideOptions

        @OptionGroup var hashesOption: HashesOption

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Frame clock feeding the accumulator of a headless run: steady:HZ, jitter:HZ:SEED, stall:HZ:AT:SECONDS or file:PATH (default steady:60). Physics is the same whatever the profile.",
                valueName: "PROFILE"))
        var frames: String?

        @Flag(
            name: .long,
            help: "Pace the frames of a headless run on the monotonic clock like a display link (--fps per second).")
        var realtime = false

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Frames per second of the live view and of --realtime (default 60).", valueName: "FPS"))
        var fps: Double?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "auto: the live view on a terminal when no output file is asked for, else headless with a summary; terminal: the live view (refused when not a terminal); none: headless with a summary.",
                valueName: "VIEW"))
        var view: ViewChoice = .auto

        @Flag(name: .long, help: "In the live view, the left and right arrow keys turn gravity by 5° per press.")
        var interactive = false

        @Flag(name: .long, help: "Close the live view by itself when the run reaches its end.")
        var exitAtEnd = false

        func validate() throws {
            if let fps { try OptionChecks.fps(fps) }
            if html != nil {
                guard trace != "-" else {
                    throw ValidationError(
                        "--html reads the trace back after the run: write it to a file, not to standard output")
                }
                guard view != .terminal else {
                    throw ValidationError("--html runs headless: it cannot be combined with --view terminal")
                }
            }
            if pictures != nil {
                guard pictures != "-" else { throw ValidationError("--pictures needs a folder name") }
                guard view != .terminal else {
                    throw ValidationError("--pictures runs headless: it cannot be combined with --view terminal")
                }
            }
            try hashesOption.validate(trace: trace, html: html)
            guard summaryJSON != "-" else { throw ValidationError("--summary-json needs a file name") }
            guard out != "-" else { throw ValidationError("--out needs a file name: the CSV is a file to replay") }
            if frames != nil, realtime {
                throw ValidationError(
                    "--frames has no effect with --realtime, which paces frames on the monotonic clock: give one of them"
                )
            }
            if view == .none {
                if interactive {
                    throw ValidationError("--interactive steers gravity in the live view, and --view none has none")
                }
                if exitAtEnd { throw ValidationError("--exit-at-end closes the live view, and --view none has none") }
            }
        }

        /// Whether any output file is asked for: such a run is headless unless `--view terminal` says otherwise.
        private var hasOutputs: Bool { trace != nil || html != nil || summaryJSON != nil || pictures != nil }

        func run() throws {
            try OutputFolder.require(trace, option: "--trace")
            try OutputFolder.require(html, option: "--html")
            try OutputFolder.require(out, option: "--out")
            let plan = try RunPlan.load(
                scenarioPath: scenario, overrides: try overrideOptions.overrides(),
                gravity: tiltOptions.gravityInput)
            try ScenarioWarnings.print(plan.warnings, label: plan.label)
            let liveTilt = try tiltOptions.liveInput()
            let live = try view.showsTerminal(
                trace: trace, hasOutputs: hasOutputs, keysFromControllingTerminal: liveTilt == .standardInput)
            try refuseIneffectiveOptions(live: live, scenario: plan.scenario)
            try refuseLiveTiltOptions(liveTilt, liveView: live)
            // A live run's tilt CSV is an output like the others: its name is chosen now.
            let csvPath = liveTilt.map { _ in LiveTiltRecording.csvPath(out: out, trace: trace) }
            if live {
                if hashesOption.hashes { throw ValidationError("--hashes is for headless runs: add --view none") }
                try checkOutputs(plan, frames: nil, csv: csvPath)
                var options = try LiveSession.options(
                    for: plan, recording: recording, fps: fps ?? 60, trace: trace, interactive: interactive,
                    frame: plan.tiltFrame)
                options.exitAtEnd = exitAtEnd
                let liveRecording = try liveTilt.map {
                    try LiveTiltRecording.open($0, plan: plan, frame: plan.tiltFrame, fps: fps ?? 60)
                }
                let csv = csvPath
                options.keysFromControllingTerminal = liveTilt == .standardInput
                // As in `record`: q stops a live recording on purpose, so its trace ends `complete` where the
                // CSV's replay ends.
                options.quitCompletes = liveTilt != nil
                if let liveRecording, let csv {
                    options.feed = liveRecording.feed
                    options.traceSource = plan.liveSource(csv: csv, frame: plan.tiltFrame)
                }
                let result = try LiveSession.run(plan, options: options) {
                    liveRecording?.makeTrack(scenario: plan.scenario)
                }
                if let liveRecording, let csv, let track = result.liveTrack {
                    try liveRecording.finish(
                        track: track, to: csv,
                        replay: replayCommand(csv: csv, summary: result.summary, plan: plan),
                        summary: result.summary, label: plan.label)
                }
                try writeSummaryJSON(result.summary, scenarioLabel: plan.label)
                try LiveSession.exit(for: result, quiet: quiet)
                return
            }
            let profile = try FrameProfile.parse(frames ?? "steady:60")
            var options = try recording.runOptions(
                for: plan.scenario, frames: profile, realtime: realtime, fps: fps ?? 60)
            options.hashes = hashesOption.hashes
            try checkOutputs(plan, frames: profile, csv: csvPath)
            // A live source is contacted now, before anything is written: a wrong address is exit 2.
            let liveRecording = try liveTilt.map {
                try LiveTiltRecording.open($0, plan: plan, frame: plan.tiltFrame, fps: fps ?? 60)
            }
            let liveTrack = liveRecording?.makeTrack(scenario: plan.scenario)
            let csv = csvPath
            let gravity = try liveTrack.map { RunPlan.Resolved(liveTrack: $0) } ?? plan.resolve()
            let source = csv.map { plan.liveSource(csv: $0, frame: plan.tiltFrame) } ?? plan.source(gravity)
            InterruptSignal.install()
            // --html without --trace: the trace goes to a temporary file, deleted after rendering.
            let temporaryTrace =
                html != nil && trace == nil
                ? FileManager.default.temporaryDirectory.appendingPathComponent(
                    "tiltbox-run-\(getpid())-\(UUID().uuidString).jsonl"
                ).path
                : nil
            defer { if let temporaryTrace { try? FileManager.default.removeItem(atPath: temporaryTrace) } }
            let tracePath = trace ?? temporaryTrace
            let metrics = RunMetricsSink(scenario: plan.scenario)
            // Expectations are checked on every step while the run steps, whatever --every says.
            let expectations =
                plan.scenario.expectations.isEmpty ? nil : ExpectationSink(scenario: plan.scenario)
            // --pictures: the states the pictures of a failure show are kept as the run passes them.
            let frames = pictures == nil ? nil : expectations.map { ExpectationFrames(expectations: $0) }
            let report = try HeadlessRun.execute(
                plan, gravity, options: options, tracePath: tracePath, source: source,
                sinks: [metrics] + (expectations.map { [$0] } ?? []) + (frames.map { [$0] } ?? []),
                onFrame: { session in
                    guard let liveRecording, let liveTrack else { return }
                    liveRecording.feed.pull(into: session, track: liveTrack, now: RealTimeClock.now())
                    try? liveRecording.printWarnings()
                })
            if let liveRecording, let liveTrack, let csv {
                try liveRecording.finish(
                    track: liveTrack, to: csv,
                    replay: replayCommand(csv: csv, summary: report.summary, plan: plan),
                    summary: report.summary, label: plan.label)
            }
            let results = expectations?.results ?? []
            let people: (String) throws -> Void = trace != "-" ? { try Console.out($0) } : { try Console.error($0) }
            if !quiet { try report.printSummary(scenarioLabel: plan.label, to: people) }
            if report.summary.outcome == .complete {
                try ExpectationLines.print(
                    results, file: plan.label, quiet: quiet, to: quiet ? { try Console.error($0) } : people)
            }
            try writeSummaryJSON(
                report.summary, scenarioLabel: plan.label,
                metrics: metrics.metrics(digest: report.summary.digest),
                expectations: expectations == nil || report.summary.outcome != .complete ? nil : results)
            if let pictures, let frames, report.summary.outcome == .complete, !results.failures.isEmpty {
                for path in try FailurePictures.write(results.failures, plan: plan, frames: frames, folder: pictures) {
                    try (quiet ? { try Console.error($0) } : people)("picture:        \(path)")
                }
            }
            // The page phase: a signal before the page is in place (during the run too)
            // leaves no page and ends with the interrupt status.
            if let html, let tracePath {
                try TraceRendering.writeHTML(scene: try TraceRendering.scene(tracePath: tracePath), to: html)
            }
            try report.exitIfNotComplete()
            if !results.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
        }

        /// The command that replays a live run's CSV (`LiveTiltRecording.replayCommand`).
        private func replayCommand(csv: String, summary: RunSummary, plan: RunPlan) -> String {
            LiveTiltRecording.replayCommand(
                scenario: scenario, csv: csv, steps: summary.steps, time: summary.simulatedTime,
                every: recording.every, frame: plan.tiltFrame, overrides: plan.overrides,
                trace: trace)
        }

        /// Refuses the options a live `--tilt` cannot use, and `--out` without one.
        private func refuseLiveTiltOptions(_ liveTilt: LiveTiltInput?, liveView: Bool) throws {
            guard let liveTilt else {
                if out != nil {
                    throw ValidationError(
                        "--out writes the gravity of a live --tilt (- or phyphox://HOST[:PORT]), and this run has none")
                }
                return
            }
            let name = "--tilt \(tiltOptions.tilt ?? "")"
            if !liveView && !realtime {
                throw ValidationError(
                    "\(name) drives a run as it goes: add --realtime (a headless run paced on the clock), or use the live view (--view terminal, on a terminal)"
                )
            }
            if liveView && interactive {
                throw ValidationError("\(name) steers gravity, and so would --interactive: give one of them")
            }
            if tiltOptions.interpolate != nil {
                throw ValidationError("--interpolate has no effect with \(name): each sample is held until the next")
            }
            if tiltOptions.convention != nil {
                throw ValidationError(
                    "--convention has no effect with \(name): \(liveTilt == .standardInput ? "a Tiltbox CSV is in g already" : "phyphox is always in Android's convention")"
                )
            }
            if html != nil {
                throw ValidationError("--html is for runs that are not live: replay the live run's CSV with --html")
            }
        }

        /// Refuses, as a usage error, an option that this run would ignore.
        private func refuseIneffectiveOptions(live: Bool, scenario: Scenario) throws {
            if live {
                if frames != nil {
                    throw ValidationError(
                        "--frames has no effect in the live view, which paces frames on the monotonic clock at --fps (add --view none for a headless run)"
                    )
                }
            } else {
                let why =
                    view == .none
                    ? "--view none"
                    : hasOutputs
                        ? "it writes \(outputNames); add --view terminal for the live view"
                        : "standard input and output are not both a terminal"
                if fps != nil, !realtime {
                    throw ValidationError(
                        "--fps sets the frame rate of the live view or of --realtime, and this run is headless without --realtime (\(why))"
                    )
                }
                if interactive {
                    throw ValidationError(
                        "--interactive steers gravity in the live view, and this run is headless (\(why))")
                }
                if exitAtEnd {
                    throw ValidationError("--exit-at-end closes the live view, and this run is headless (\(why))")
                }
            }
            // Interactive mode keeps orientation and g: the live track's samples are in them.
            try tiltOptions.refuseWithoutTiltInput(scenario: scenario, keepingOrientationAndG: live && interactive)
        }

        private var outputNames: String {
            [
                trace.map { _ in "--trace" }, html.map { _ in "--html" }, summaryJSON.map { _ in "--summary-json" },
            ]
            .compactMap { $0 }.joined(separator: " and ")
        }

        private func writeSummaryJSON(
            _ summary: RunSummary, scenarioLabel: String, metrics: RunMetrics? = nil,
            expectations: [ExpectationResult]? = nil
        ) throws {
            guard let summaryJSON else { return }
            let tracePath = trace == "-" ? "-" : trace
            // A failure is an `OutputFileError`: exit 1 with its message.
            try OutputFile.write(
                Array(
                    summary.jsonText(
                        scenario: scenario ?? scenarioLabel, trace: tracePath, metrics: metrics,
                        expectations: expectations
                    ).utf8),
                to: summaryJSON)
        }

        /// Refuses, before anything is written, a --trace, --html, --summary-json, a live run's tilt
        /// CSV (`csv`: --out or the name chosen for it) or a --pictures picture that is one of the
        /// run's input files, or two of them the same file (exit 2).
        private func checkOutputs(_ plan: RunPlan, frames: FrameProfile?, csv: String?) throws {
            var overwrite = OverwriteCheck()
            overwrite.runInputs(
                scenarioPath: plan.scenarioPath, scenario: plan.scenario, gravity: plan.gravity, frames: frames)
            try overwrite.output(trace, as: "--trace")
            try overwrite.output(csv, as: out != nil ? "--out" : "the live tilt CSV")
            try overwrite.output(html, as: "--html")
            try overwrite.output(summaryJSON, as: "--summary-json")
            if let pictures {
                for index in plan.scenario.expectations.indices {
                    try overwrite.output(
                        FailurePictures.path(folder: pictures, label: plan.label, index: index),
                        as: "--pictures (the picture of expect[\(index)])")
                }
            }
        }
    }
}
