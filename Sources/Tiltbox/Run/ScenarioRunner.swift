/// Runs a scenario headless from start to end: builds the `Simulation`, attaches a trace
/// writer or a digest, feeds frames from the chosen clock, and closes the trace with the
/// right end line whatever happens (complete, interrupted, diverged, write failure).
public enum ScenarioRunner {
    /// A failure that ended the run after its trace was closed (or could not be).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var summary: RunSummary?
        public var message: String
        /// The trace write that failed, when that is what ended the run (so a caller can
        /// tell a closed pipe, `EPIPE`, from a full disk).
        public var writeError: TraceWriteError?
        public var description: String { message }
    }

    /// Runs `scenario` under `track`.
    ///
    /// - Parameters:
    ///   - tracePath: where to write the trace (`-` for standard output), or `nil` for none.
    ///   - source: what the run was made from, for the trace header, with paths as given
    ///     (they are written relative to the trace's folder).
    ///   - shouldStop: polled between steps; `true` ends the run as `interrupted`.
    ///   - progress: called after every frame, for progress lines.
    /// - Returns: the summary; `outcome` tells complete, interrupted or diverged.
    /// - Throws: `TraceWriteError` when the trace cannot be created, `Failure` when writing fails mid-run.
    public static func run(
        scenario: Scenario, track: any GravityTrack, options: RunOptions, tracePath: String?,
        tiltName: String? = nil, source: TraceHeader.Source? = nil,
        shouldStop: () -> Bool = { InterruptSignal.isRaised },
        progress: (Simulation) -> Void = { _ in }
    ) throws -> RunSummary {
        let simulation = Simulation(scenario: scenario, track: track, totalSteps: options.totalSteps, every: options.every)
        let writer: TraceWriter?
        let sink: RecordingSink
        if let tracePath {
            var header = TraceHeader(scenario: scenario, every: options.every,
                                     duration: simulation.time(ofStep: simulation.totalSteps), tilt: tiltName,
                                     space: simulation.world.spaceSettings,
                                     source: source?.relativized(toTrace: tracePath))
            if options.hashes { header.records = .hashes }
            let w = try TraceWriter(path: tracePath, header: header)
            writer = w
            sink = RecordingSink(writer: w)
        } else {
            writer = nil
            sink = RecordingSink(writer: nil)
        }
        simulation.addSink(sink)

        let started = RealTimeClock.now()
        var outcome: RunOutcome
        do {
            if options.realtime {
                var clock = RealTimeClock(fps: options.fps)
                outcome = try simulation.run(clock: &clock, shouldStop: shouldStop, onFrame: progress)
            } else {
                var clock = options.frames.makeClock()
                outcome = try simulation.run(clock: &clock, shouldStop: shouldStop, onFrame: progress)
            }
        } catch {
            // A write failed mid-run: try to close the trace so it still ends in a whole line.
            let steps = simulation.stepper.stepCount
            try? writer?.finish(.error("trace write failed: \(error)", steps: steps,
                                       simTime: simulation.time(ofStep: steps), droppedTime: simulation.stepper.droppedTime))
            throw Failure(summary: nil, message: "\(error)", writeError: error as? TraceWriteError)
        }
        let wall = RealTimeClock.now() - started

        let steps: Int
        if case .diverged(let step, _) = outcome { steps = step } else { steps = simulation.stepper.stepCount }
        let simTime = simulation.time(ofStep: steps)
        let dropped = simulation.stepper.droppedTime
        var summary = RunSummary(
            outcome: outcome, steps: steps, totalSteps: simulation.totalSteps, simulatedTime: simTime,
            droppedTime: dropped, frames: simulation.stepper.frameCount, records: sink.records,
            wallTime: wall, digest: sink.digest.text, traceBytes: nil)
        if let writer {
            let end: TraceEnd
            switch outcome {
            case .complete: end = .complete(steps: steps, simTime: simTime, droppedTime: dropped)
            case .interrupted: end = .interrupted(steps: steps, simTime: simTime, droppedTime: dropped)
            case .diverged(let step, let divergence):
                end = .error("step \(step): \(divergence)", steps: steps, simTime: simTime, droppedTime: dropped)
            }
            do {
                try writer.finish(end)
            } catch {
                throw Failure(summary: summary, message: "\(error)", writeError: error)
            }
            summary.traceBytes = writer.bytesWritten
            // The writer thread's last records belong to the run's cost.
            summary.wallTime = RealTimeClock.now() - started
        }
        return summary
    }
}

/// Forwards records to the trace writer (when there is one) or keeps the digest itself,
/// so a run without a trace still reports the digest its trace would have.
final class RecordingSink: RecordSink {
    let writer: TraceWriter?
    private var ownDigest = TraceDigest()
    private(set) var records = 0

    init(writer: TraceWriter?) {
        self.writer = writer
    }

    /// The digest of the records so far (the writer's, waiting for its thread, when there is one).
    var digest: TraceDigest { writer?.digestValue ?? ownDigest }

    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        records += 1
        if let writer {
            try writer.writeRecord(step: step, t: time, gravity: gravity, states: states)
        } else {
            ownDigest.addRecord(gravity: gravity, states: states)
        }
    }
}
