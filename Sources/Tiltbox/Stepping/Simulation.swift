/// Receives the body states the run records: step 0, every `every`-th step and the last.
///
/// Trace writers, digests and summaries are sinks; they only read what they are given
/// and never reach back into the world.
public protocol RecordSink: AnyObject {
    /// One record: the state after `step` steps, at simulated time `time = step·dt`,
    /// with `gravity` the world gravity at that time. `states` holds six doubles per
    /// crate in trace order and is only valid during the call.
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws
}

/// How a run ended.
public enum RunOutcome: Sendable, Equatable {
    /// Every step of the scenario's duration was taken.
    case complete
    /// Ctrl-C or SIGTERM arrived; the run stopped between steps.
    case interrupted
    /// A crate's state left the finite range at `step`.
    case diverged(step: Int, divergence: Divergence)
}

/// One scenario run: a `World` advanced by a `FixedStepper`, with gravity pulled from a
/// `GravityTrack` at `t = n·dt` for physics step `n`, and records pushed to sinks.
///
/// The run is a pure function of the scenario and the track: the frame clock only
/// groups steps into frames, so any clock gives the same records.
public final class Simulation {
    public let scenario: Scenario
    public let world: World
    public let track: any GravityTrack
    public private(set) var stepper: FixedStepper
    /// Steps the run takes in all (`scenario.totalSteps` unless overridden).
    public let totalSteps: Int
    /// Record every `every`-th step (and step 0 and the last).
    public let every: Int
    /// The step length in seconds. Kept apart from `stepper`, which is being mutated
    /// while the step closure runs.
    public let dt: Double

    private var sinks: [any RecordSink] = []
    private var states: [Double]
    private var previousStates: [Double]
    private var finished: RunOutcome?

    /// - Parameters:
    ///   - totalSteps: overrides `scenario.totalSteps` (the CLI's `--duration`).
    ///   - every: record interval in steps, ≥ 1.
    public init(scenario: Scenario, track: any GravityTrack, totalSteps: Int? = nil, every: Int = 1) {
        precondition(every >= 1)
        self.scenario = scenario
        self.track = track
        self.world = World(scenario: scenario)
        self.stepper = FixedStepper(dt: scenario.timestep.dt, maxStepsPerFrame: scenario.timestep.maxStepsPerFrame)
        self.totalSteps = totalSteps ?? scenario.totalSteps
        self.every = every
        self.dt = scenario.timestep.dt
        states = [Double](repeating: 0, count: world.crates.count * 6)
        previousStates = states
        states.withUnsafeMutableBufferPointer { world.readStates(into: $0) }
        previousStates = states
        world.setGravity(track.gravity(at: 0))
    }

    /// Adds a sink; call before `start()`.
    public func addSink(_ sink: any RecordSink) {
        sinks.append(sink)
    }

    /// Simulated time of step `n`, computed as `n·dt` (never by summing, so it is exact and repeatable).
    public func time(ofStep n: Int) -> Double { Double(n) * dt }

    /// True once the run has ended (complete, diverged); `outcome` says how.
    public var outcome: RunOutcome? { finished }

    /// The current states, six per crate in trace order.
    public func withCurrentStates<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try states.withUnsafeBufferPointer(body)
    }

    /// The states before the last step, for renderers interpolating with `stepper.alpha`.
    public func withPreviousStates<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try previousStates.withUnsafeBufferPointer(body)
    }

    /// Records step 0 (the state before any step). Call once before feeding frames.
    public func start() throws {
        try emit(step: 0)
    }

    /// Feeds one frame of `frameDuration` seconds: takes the fixed steps it pays for
    /// (capped), records where due, and stops at the last step or at a divergence.
    @discardableResult
    public func advance(frameDuration: Double, shouldStop: () -> Bool = { false }) throws -> FixedStepper.FrameReport {
        guard finished == nil else { return FixedStepper.FrameReport(steps: 0, droppedSteps: 0) }
        let remaining = totalSteps - stepper.stepCount
        var report = FixedStepper.FrameReport(steps: 0, droppedSteps: 0)
        do {
            report = try stepper.advance(frameDuration: frameDuration, limit: remaining) { n in
                if shouldStop() { throw StopSignal.stop }
                try physicsStep(n)
            }
        } catch StopSignal.stop {
            if finished == nil { finished = .interrupted }
        }
        if finished == nil && stepper.stepCount >= totalSteps { finished = .complete }
        return report
    }

    /// Runs headless to the end on `clock`, checking `shouldStop` between steps.
    public func run(clock: inout some FrameClock, shouldStop: () -> Bool = { false }, onFrame: (Simulation) -> Void = { _ in }) throws -> RunOutcome {
        if stepper.stepCount == 0 && stepper.frameCount == 0 { try start() }
        while finished == nil {
            if shouldStop() { finished = .interrupted; break }
            try advance(frameDuration: clock.nextFrameDuration(), shouldStop: shouldStop)
            onFrame(self)
        }
        return finished ?? .complete
    }

    /// Ends the run as `complete` at the step reached, as if the run had been asked for
    /// exactly that many steps: records the step reached unless it is already recorded
    /// (step 0 and every `every`-th step are), so the trace ends where a replay with that
    /// duration ends. `tiltbox record` does this when the user quits with `q`.
    /// A no-op once the run has ended.
    public func concludeAtCurrentStep() throws {
        guard finished == nil else { return }
        let reached = stepper.stepCount
        if reached > 0 && reached % every != 0 { try emit(step: reached) }
        finished = .complete
    }

    /// Marks the run as interrupted (for loops driven from outside, like the live view).
    public func interrupt() {
        if finished == nil { finished = .interrupted }
    }

    // MARK: - Stepping

    private enum StopSignal: Error { case stop }

    private func physicsStep(_ n: Int) throws {
        world.setGravity(track.gravity(at: time(ofStep: n)))
        world.step(dt: dt)
        swap(&states, &previousStates)
        let divergence = states.withUnsafeMutableBufferPointer { buffer -> Divergence? in
            world.readStates(into: buffer)
            return world.firstDivergence(in: UnsafeBufferPointer(buffer))
        }
        let reached = n + 1
        if let divergence {
            finished = .diverged(step: reached, divergence: divergence)
            throw StopSignal.stop
        }
        if reached % every == 0 || reached == totalSteps {
            try emit(step: reached)
        }
    }

    private func emit(step: Int) throws {
        let t = time(ofStep: step)
        let g = track.gravity(at: t)
        try states.withUnsafeBufferPointer { buffer in
            for sink in sinks {
                try sink.record(step: step, time: t, gravity: g, states: buffer)
            }
        }
    }
}
