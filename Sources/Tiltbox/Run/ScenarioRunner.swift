/// Runs a scenario headless from start to end: drives a `RunSession` from a frame clock
/// (the chosen profile, or the monotonic clock in real time) and finishes it, so the
/// trace ends with the right end line whatever happens (complete, interrupted, diverged,
/// write failure).
@_spi(Tools) public enum ScenarioRunner {
    /// Runs `scenario` under `track`.
    ///
    /// - Parameters:
    ///   - scenario: the scenario to run.
    ///   - track: the gravity input, evaluated once per step.
    ///   - options: steps, record interval, frame clock and header hashes.
    ///   - tracePath: where to write the trace (`-` for standard output), or `nil` for none.
    ///   - tiltName: the tilt file's name for the trace header, or `nil`.
    ///   - source: what the run was made from, for the trace header, with paths as given
    ///     (they are written relative to the trace's folder).
    ///   - shouldStop: polled between steps; `true` ends the run as `interrupted`.
    ///   - progress: called after every frame, for progress lines.
    ///   - sinks: further sinks given every record (after the trace's).
    /// - Returns: the summary; `outcome` tells complete, interrupted or diverged.
    /// - Throws: `TraceWriteError` when the trace cannot be created, `RunFailure` when writing fails mid-run.
    public static func run(
        scenario: Scenario, track: any GravityTrack, options: RunOptions, tracePath: String?,
        tiltName: String? = nil, source: TraceHeader.Source? = nil,
        shouldStop: () -> Bool = { InterruptSignal.isRaised },
        progress: (RunSession) -> Void = { _ in },
        sinks: [any RecordSink] = []
    ) throws -> RunSummary {
        let session: RunSession
        if let tracePath {
            session = try RunSession(
                scenario: scenario, track: track, totalSteps: options.totalSteps, every: options.every,
                trace: .init(path: tracePath, tilt: tiltName, source: source, hashes: options.hashes),
                sinks: sinks)
        } else {
            session = RunSession(
                scenario: scenario, track: track, totalSteps: options.totalSteps, every: options.every,
                sinks: sinks)
        }
        do {
            if options.realtime {
                var clock = RealTimeClock(fps: options.fps)
                _ = try session.run(clock: &clock, shouldStop: shouldStop, onFrame: progress)
            } else {
                var clock = options.frames.makeClock()
                _ = try session.run(clock: &clock, shouldStop: shouldStop, onFrame: progress)
            }
        } catch {
            // A write failed mid-run: `finish` closes the trace so it still ends in a whole line.
        }
        return try session.finish()
    }
}
