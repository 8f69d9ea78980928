/// The fixed-timestep accumulator: turns variable frame durations into whole physics
/// steps of exactly `dt`, with a cap on steps per frame (the spiral-of-death guard).
///
/// Physics never takes a variable step: frame timing decides only *when* step `n`
/// happens, never what it computes. `alpha` tells a renderer how far the clock has run
/// past the last step, for interpolating between the previous and current states.
public struct FixedStepper: Sendable {
    /// Step length in seconds.
    public let dt: Double
    /// The most steps a single frame may take.
    public let maxStepsPerFrame: Int

    /// Unsimulated time carried to the next frame, counted in steps (`seconds × hz`).
    /// Keeping it in steps makes the usual cases exact: a 1/60 s frame at 120 Hz adds
    /// exactly 2, where adding seconds and subtracting `dt` would drift by an ulp and
    /// move a step into the next frame.
    private var owedSteps: Double = 0
    private let hz: Double
    /// Steps taken so far; the next step is physics step `stepCount`.
    public private(set) var stepCount: Int = 0
    /// Whole steps skipped because a frame hit the cap.
    public private(set) var droppedSteps: Int = 0
    /// Frames fed so far.
    public private(set) var frameCount: Int = 0

    /// Creates an accumulator with no owed time and no steps taken.
    ///
    /// - Precondition: `dt` is positive and finite and `maxStepsPerFrame` is at least 1
    ///   (the scenario loader checks `timestep.hz` and `timestep.maxStepsPerFrame`).
    public init(dt: Double, maxStepsPerFrame: Int) {
        precondition(dt > 0 && dt.isFinite && maxStepsPerFrame >= 1)
        self.dt = dt
        self.hz = 1 / dt
        self.maxStepsPerFrame = maxStepsPerFrame
    }

    /// Unsimulated time carried to the next frame in seconds, in `0 ..< dt` after a
    /// frame that did not stop at a limit.
    public var accumulator: Double { owedSteps * dt }

    /// Simulated time the cap dropped, `droppedSteps × dt` (exact in steps).
    public var droppedTime: Double { Double(droppedSteps) * dt }

    /// Simulated time reached, `stepCount × dt`.
    public var simulatedTime: Double { Double(stepCount) * dt }

    /// How far between the last step and the next the frame clock stands, in `[0, 1)`.
    public var alpha: Double { owedSteps }

    /// What one frame did.
    public struct FrameReport: Sendable, Equatable {
        /// Steps taken in this frame.
        public var steps: Int
        /// Whole steps dropped in this frame because of the cap.
        public var droppedSteps: Int
    }

    /// Adds one frame's duration and takes every whole step it pays for, at most
    /// `maxStepsPerFrame` (and at most `limit`, for a run that must stop at an exact
    /// step count). `step` receives the physics step index `n`, whose time is `n·dt`.
    ///
    /// Time beyond the cap is dropped in whole steps and counted in `droppedSteps`;
    /// the fraction of a step left over stays in the accumulator for `alpha`.
    public mutating func advance(
        frameDuration: Double, limit: Int = .max, step: (Int) throws -> Void
    ) rethrows -> FrameReport {
        precondition(frameDuration >= 0 && frameDuration.isFinite, "frame durations are validated by the frame clock")
        frameCount += 1
        owedSteps += frameDuration * hz
        var taken = 0
        while owedSteps >= 1 && taken < maxStepsPerFrame && taken < limit {
            try step(stepCount)
            stepCount += 1
            owedSteps -= 1
            taken += 1
        }
        var dropped = 0
        if taken == maxStepsPerFrame && owedSteps >= 1 {
            let whole = owedSteps.rounded(.down)
            dropped = whole < Double(Int.max) ? Int(whole) : Int.max
            owedSteps -= whole
            droppedSteps += dropped
        }
        return FrameReport(steps: taken, droppedSteps: dropped)
    }
}
