/// How to run a scenario, besides the scenario and its gravity track.
public struct RunOptions: Sendable {
    /// Record every `every`-th step (plus step 0 and the last). Default 1.
    public var every: Int
    /// Steps to run instead of the scenario's `duration × hz` (the CLI's `--duration`).
    public var totalSteps: Int?
    /// The clock feeding the accumulator when not running in real time. Default `steady:60`.
    public var frames: FrameProfile
    /// Pace frames on the monotonic clock at `fps`, like a display link.
    public var realtime: Bool
    /// Frames per second for `realtime`. Default 60.
    public var fps: Double
    /// Write hash records (`"h"`) instead of states to the trace (`run --hashes`). Default false.
    public var hashes = false

    /// Creates options; the defaults record every step of the scenario's duration, fed by a
    /// steady 60 Hz frame clock, not paced in real time.
    public init(
        every: Int = 1, totalSteps: Int? = nil, frames: FrameProfile = .steady(hz: 60),
        realtime: Bool = false, fps: Double = 60
    ) {
        self.every = every
        self.totalSteps = totalSteps
        self.frames = frames
        self.realtime = realtime
        self.fps = fps
    }
}

/// What a finished run reports: the figures of `tiltbox run`'s summary.
public struct RunSummary: Sendable {
    /// Why the run ended: complete, interrupted, or diverged at a step.
    public var outcome: RunOutcome
    /// Steps taken.
    public var steps: Int
    /// Steps the run was to take.
    public var totalSteps: Int
    /// `steps × dt` in seconds.
    public var simulatedTime: Double
    /// Simulated time the step cap dropped, in seconds.
    public var droppedTime: Double
    /// Frames fed to the stepper.
    public var frames: Int
    /// Records written (or digested when there is no trace).
    public var records: Int
    /// Seconds on the monotonic clock from the first step to the last (not part of the physics).
    public var wallTime: Double
    /// The FNV-1a 64 digest of the records, as written in a trace's end line.
    public var digest: String
    /// Bytes of trace written, when a trace was written.
    public var traceBytes: Int?
    /// What Chipmunk printed during the steps (kept off standard error; the CLI prints its
    /// `summary` once, after the run).
    public var engineDiagnostics = EngineDiagnostics()

    /// Physics steps per wall-clock second.
    public var stepsPerSecond: Double { wallTime > 0 ? Double(steps) / wallTime : 0 }
}
