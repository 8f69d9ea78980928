/// Receives the body states a run records (step 0, every `every`-th step and the last),
/// then the run's end, exactly once.
///
/// The trace writer's recording sink, the digest, the bench's collectors, the soak's
/// memory report and the live view's state buffer (given every step) are sinks; they only
/// read what they are given and never reach back into the world.
public protocol RecordSink: AnyObject {
    /// One record: the state after `step` steps, at simulated time `time = step·dt`,
    /// with `gravity` the value the session applied for step `step` (see `RunSession`'s
    /// gravity rule). `states` holds `BodyStateLayout.count` doubles per body present, in trace
    /// order (the header's bodies, changed by the events given before: `TracePresence`), and is
    /// only valid during the call.
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws

    /// A change of the bodies or joints (docs/formats.md §8 events), given before the first
    /// record that shows it: a sink given the recorded steps only gets the events of the steps
    /// between in one go before the next record; none is ever left out.
    func event(_ event: TraceEvent) throws

    /// The run ended as `end` says. `RunSession.finish()` calls it once per sink, after
    /// the last record, whatever ended the run (complete, interrupted, diverged, a write failure).
    func finish(end: TraceEnd) throws

    /// True for a sink that is given the state after every step, whatever the session's
    /// `every` (the live view's state buffer, which draws between the last two steps).
    /// Such a sink sees the recorded steps too, each once, in step order.
    var recordsEveryStep: Bool { get }
}

extension RecordSink {
    /// Sinks that do not follow the bodies present need not implement `event(_:)`.
    public func event(_ event: TraceEvent) throws {}

    /// Sinks with nothing to close need not implement `finish(end:)`.
    public func finish(end: TraceEnd) throws {}

    /// Sinks are given the recorded steps only (step 0, every `every`-th and the last) unless they say otherwise.
    public var recordsEveryStep: Bool { false }
}

/// A failure that ended a run after its sinks were finished (or could not be).
public struct RunFailure: Error, Sendable, CustomStringConvertible {
    /// The run's summary, when the run itself ended and only closing the trace failed.
    public var summary: RunSummary?
    /// One line for people: the failed write, or the failure of a sink's `finish(end:)`,
    /// as the error describes itself.
    public var message: String
    /// The trace write that failed, when that is what ended the run (so a caller can
    /// tell a closed pipe, `EPIPE`, from a full disk).
    public var writeError: TraceWriteError?
    /// `message`.
    public var description: String { message }
}

/// One scenario run from set-up to its end: a `World` advanced by a fixed-step
/// accumulator, gravity taken from a `GravityTrack`, records pushed to sinks, and every
/// sink's end written exactly once by `finish()`.
///
/// Every way of running uses it: `ScenarioRunner` drives it from a frame clock, the
/// live view from the display clock, the bench, the soak and the fuzz targets directly.
/// The run is a pure function of the scenario and the track: the frame clock only
/// groups steps into frames, so any clock gives the same records.
///
/// **The step order** (docs/formats.md §8): at each step n, (1) the timeline's actions due at
/// n (`TimelinePlayer`), (2) gravity for step n and kinematic path poses, (3) record n, (4)
/// `cpSpaceStep`; then the post-step slot (`afterStep(reached:)`: (5) rule actions queued during
/// the step, (6) culling), which belongs to the state of step n + 1. Each change makes an event
/// (`TraceEvent`), given to the sinks before the first record that shows it.
///
/// **The gravity rule.** Physics step `n` (from state `n` to state `n + 1`) runs under
/// the track's value at `t = n·dt`. That value is evaluated once, applied to the world
/// when state `n` is reached (at set-up for `n = 0`), and is the `g` of record `n` and
/// the `gravity` a view shows there. So a record's `g` is the gravity the step after it
/// uses; a live change scheduled with `scheduleGravityChange` takes effect from the
/// first step whose gravity is not yet applied.
public final class RunSession {
    /// Where and how to write the run's trace.
    public struct TraceOutput: Sendable {
        /// The trace's path, `-` for standard output.
        public var path: String
        /// The tilt name for the header (`live` for an interactive run).
        public var tilt: String?
        /// What the run was made from, with paths as given (written relative to the trace's folder).
        public var source: TraceHeader.Source?
        /// Write each record's hash instead of its states (`run --hashes`, a compact golden).
        public var hashes: Bool

        /// Where to write (`path`) and what the header says about the tilt and the source.
        public init(path: String, tilt: String? = nil, source: TraceHeader.Source? = nil, hashes: Bool = false) {
            self.path = path
            self.tilt = tilt
            self.source = source
            self.hashes = hashes
        }
    }

    /// The scenario the session runs.
    public let scenario: Scenario
    /// The world built from `scenario`; read its states between steps.
    public let world: World
    /// The gravity input, evaluated once per step.
    public let track: any GravityTrack
    /// Steps the run takes in all (`scenario.totalSteps` unless overridden).
    public let totalSteps: Int
    /// Record every `every`-th step (and step 0 and the last).
    public let every: Int
    /// The step length in seconds.
    public let dt: Double

    // The properties the step loop touches every step are `@exclusivity(unchecked)`: one
    // thread drives a session, and the run-time exclusivity check of each access would cost
    // more than the rest of the wrapper's work in a step of a small scene.
    @exclusivity(unchecked) private var stepper: FixedStepper
    private let recording: RecordingSink
    /// Every sink: the recording one first, then the caller's, in the order given.
    @exclusivity(unchecked) private var sinks: [any RecordSink]
    /// The caller's sinks (`sinks` without the recording one). A recorded step calls the
    /// recording sink directly and these through the protocol: each call through an array of
    /// existentials retains and releases its sink, a cost paid per sink and step.
    @exclusivity(unchecked) private var callerSinks: [any RecordSink]
    /// The sinks given every step (`recordsEveryStep`), a subset of `sinks`.
    @exclusivity(unchecked) private var everyStepSinks: [any RecordSink]
    // The states of the last step and of the one before, in storage the session owns (freed in
    // `deinit`) rather than arrays: reading an array property retains and releases its buffer,
    // a cost paid on each of the step loop's reads.
    @exclusivity(unchecked) private var states = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    @exclusivity(unchecked) private var previousStates = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    @exclusivity(unchecked) private var appliedGravity: Vec2
    @exclusivity(unchecked) private var ended: RunOutcome? {
        didSet { running = ended == nil }
    }
    /// `ended == nil`, kept as a flag: the step loop tests it every step and a flag costs
    /// less than a look at the enum's payload.
    @exclusivity(unchecked) private var running = true
    private var writeFailure: (any Error)?
    private var started = false
    private var startedAt = 0.0
    private var result: Result<RunSummary, RunFailure>?
    /// What the interrupt watchdog sees of the run, from its start to `finish()`.
    @exclusivity(unchecked) private var watch: RunWatch?
    /// The timeline's player; `nil` for a scenario without a timeline.
    @exclusivity(unchecked) private var player: TimelinePlayer?
    /// The collision rules' and culling's player; `nil` for a scenario with neither.
    @exclusivity(unchecked) private var rules: RulePlayer?
    /// The sinks checking expectations: they read the contacts of each step before its post-step slot.
    @exclusivity(unchecked) private var expectationSinks: [ExpectationSink] = []
    /// Events not yet given to the sinks of recorded steps (all but the every-step ones).
    @exclusivity(unchecked) private var pendingEvents: [TraceEvent] = []
    /// Events not yet given to the every-step sinks.
    @exclusivity(unchecked) private var pendingEveryStepEvents: [TraceEvent] = []
    /// Most events held for the sinks between two records (docs/formats.md §8): past this many,
    /// after a step, they are given to the sinks at once, still before the record that shows
    /// them, so a run recorded with a large `--every` holds at most these and one step's events.
    static let maxHeldEvents = 256
    /// The most events held at once before they were given to the sinks (for tests of the bound).
    private(set) var peakHeldEvents = 0
    /// The joints at start, before the timeline's step-0 actions: the trace header's `joints`.
    private let startJointOutlines: [JointOutline]

    /// A session without a trace (the digest is still computed).
    ///
    /// - Parameters:
    ///   - scenario: the scenario to build the world from.
    ///   - track: the gravity input, evaluated once per step.
    ///   - totalSteps: overrides `scenario.totalSteps` (the CLI's `--duration`).
    ///   - every: record interval in steps, ≥ 1.
    ///   - sinks: further sinks, given every record after the recording one.
    public init(
        scenario: Scenario, track: any GravityTrack, totalSteps: Int? = nil, every: Int = 1,
        sinks: [any RecordSink] = []
    ) {
        precondition(every >= 1)
        self.scenario = scenario
        self.track = track
        let world = World(scenario: scenario)
        self.world = world
        self.stepper = FixedStepper(dt: scenario.timestep.dt, maxStepsPerFrame: scenario.timestep.maxStepsPerFrame)
        self.totalSteps = totalSteps ?? scenario.totalSteps
        self.every = every
        self.dt = scenario.timestep.dt
        recording = RecordingSink(writer: nil)
        self.sinks = [recording] + sinks
        callerSinks = sinks
        everyStepSinks = sinks.filter(\.recordsEveryStep)
        appliedGravity = .zero
        startJointOutlines = world.jointOutlines
        if !scenario.timeline.isEmpty {
            player = TimelinePlayer(timeline: scenario.timeline, dt: scenario.timestep.dt)
        }
        let rulePlayer = RulePlayer(scenario: scenario)
        if rulePlayer.isActive { rules = rulePlayer }
        // (1) of step 0: the actions due at step 0, before gravity and record 0.
        applyTimeline(step: 0)
        let count = world.bodyCount * BodyStateLayout.count
        states = Self.allocateStates(count: count)
        world.readStates(into: states)
        previousStates = Self.allocateStates(count: count)
        _ = previousStates.update(fromContentsOf: states)
        expectationSinks = sinks.compactMap { $0 as? ExpectationSink }
        for expectations in expectationSinks {
            expectations.attach(to: world, totalSteps: self.totalSteps) { [unowned self] in
                Dictionary(self.counters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            }
        }
        for frames in sinks.compactMap({ $0 as? ExpectationFrames }) {
            // The header of a trace of every step, made only if a picture is drawn.
            let (space, joints, duration) = (world.spaceSettings, startJointOutlines, time(ofStep: self.totalSteps))
            frames.attach(totalSteps: self.totalSteps, dt: dt) {
                TraceHeader(
                    scenario: scenario, every: 1, duration: duration, space: space, jointOutlines: joints)
            }
        }
        applyGravity(forStep: 0)
    }

    /// A session writing its trace to `trace.path` (header from the scenario, the world's
    /// space settings and `trace`'s tilt and source).
    ///
    /// - Parameters:
    ///   - scenario: the scenario to build the world from.
    ///   - track: the gravity input, evaluated once per step.
    ///   - totalSteps: overrides `scenario.totalSteps` (the CLI's `--duration`).
    ///   - every: record interval in steps, ≥ 1.
    ///   - trace: where to write the trace and what its header records.
    ///   - sinks: further sinks, given every record after the recording one.
    /// - Throws: `TraceWriteError` when the trace cannot be created.
    public convenience init(
        scenario: Scenario, track: any GravityTrack, totalSteps: Int? = nil, every: Int = 1,
        trace: TraceOutput, sinks: [any RecordSink] = []
    ) throws {
        self.init(scenario: scenario, track: track, totalSteps: totalSteps, every: every, sinks: sinks)
        var header = TraceHeader(
            scenario: scenario, every: every, duration: time(ofStep: self.totalSteps),
            tilt: trace.tilt, space: world.spaceSettings, jointOutlines: startJointOutlines,
            source: trace.source?.relativized(toTrace: trace.path))
        if trace.hashes { header.records = .hashes }
        recording.writer = try TraceWriter(path: trace.path, header: header)
    }

    // MARK: - What callers read

    /// Simulated time of step `n`, computed as `n·dt` (never by summing, so it is exact and repeatable).
    public func time(ofStep n: Int) -> Double { Double(n) * dt }

    /// Steps taken so far.
    public var stepCount: Int { stepper.stepCount }
    /// `stepCount · dt`.
    public var simulatedTime: Double { stepper.simulatedTime }
    /// Frame time the step cap discarded, in seconds.
    public var droppedTime: Double { stepper.droppedTime }
    /// Steps the step cap discarded.
    public var droppedSteps: Int { stepper.droppedSteps }
    /// Frames fed so far.
    public var frameCount: Int { stepper.frameCount }
    /// How far past the last step the frames have run, in steps (0..<1), for interpolating renderers.
    public var alpha: Double { stepper.alpha }
    /// The gravity applied for the next step: the `g` of the record at `stepCount`.
    public var gravity: Vec2 { appliedGravity }
    /// True once the run has ended (complete, diverged, interrupted); `outcome` says how.
    public var outcome: RunOutcome? { ended }

    /// The current states, `BodyStateLayout.count` per body present, in trace order (`World.bodyIDs`).
    public func withCurrentStates<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(states))
    }

    /// The states before the last step, for renderers interpolating with `alpha`: laid out for
    /// the bodies present then, which a timeline may since have changed.
    public func withPreviousStates<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(previousStates))
    }

    // MARK: - Driving

    /// Changes the track from the first step whose gravity is not yet applied on:
    /// `change` gets that step's time. A live input turns its track this way, so the run,
    /// its records and a replay of the trace all see the change at the same step.
    public func scheduleGravityChange(_ change: (_ fromTime: Double) -> Void) {
        change(time(ofStep: stepper.stepCount + 1))
    }

    /// Feeds one frame of `frameDuration` seconds: takes the fixed steps it pays for
    /// (capped), records where due, and stops at the last step or at a divergence.
    /// Records step 0 first, on the first call.
    ///
    /// - Throws: a sink's error (a trace write that failed); `finish()` then closes the sinks.
    @discardableResult
    public func advance(frameDuration: Double, shouldStop: () -> Bool = { false }) throws -> FixedStepper.FrameReport {
        try start()
        guard running else { return FixedStepper.FrameReport(steps: 0, droppedSteps: 0) }
        let remaining = totalSteps - stepper.stepCount
        var report = FixedStepper.FrameReport(steps: 0, droppedSteps: 0)
        // Steps of this frame drop nothing before the frame's last step: the dropped time is
        // the same for each of them.
        let droppedTime = stepper.droppedTime
        do {
            report = try stepper.advance(frameDuration: frameDuration, limit: remaining) { n in
                if shouldStop() {
                    watch?.acknowledge()
                    throw StopSignal.stop
                }
                watch?.willStep(stepsTaken: n, droppedTime: droppedTime)
                try physicsStep(n)
            }
        } catch StopSignal.stop {
            if running { ended = .interrupted }
        } catch {
            writeFailure = error
            throw error
        }
        if running && stepper.stepCount >= totalSteps { ended = .complete }
        return report
    }

    /// Runs to the end on `clock`, checking `shouldStop` between steps.
    public func run(
        clock: inout some FrameClock, shouldStop: () -> Bool = { false },
        onFrame: (RunSession) -> Void = { _ in }
    ) throws -> RunOutcome {
        try start()
        while running {
            if shouldStop() {
                watch?.acknowledge()
                ended = .interrupted
                break
            }
            try advance(frameDuration: clock.nextFrameDuration(), shouldStop: shouldStop)
            onFrame(self)
        }
        return ended ?? .complete
    }

    /// Ends the run as `complete` at the step reached, as if the run had been asked for
    /// exactly that many steps: records the step reached unless it is already recorded
    /// (step 0 and every `every`-th step are), so the trace ends where a replay with that
    /// duration ends. `tiltbox record` does this when the user quits with `q`.
    /// A no-op once the run has ended.
    public func concludeAtCurrentStep() throws {
        try start()
        guard ended == nil else { return }
        let reached = stepper.stepCount
        if reached > 0 && reached % every != 0 {
            // The every-step sinks were given this step when it was taken.
            let unrecorded = sinks.filter { !$0.recordsEveryStep }
            do { try emit(step: reached, to: unrecorded) } catch { writeFailure = error; throw error }

        }
        ended = .complete
    }

    /// Marks the run as interrupted (for loops driven from outside, like the live view).
    public func interrupt() {
        watch?.acknowledge()
        if ended == nil { ended = .interrupted }
    }

    /// Ends the run: gives every sink its end exactly once (an unfinished run ends as
    /// `interrupted`, a failed write as `error`) and returns the summary. Calling it again
    /// returns the same summary (or throws the same failure) without touching the sinks.
    ///
    /// - Throws: `RunFailure` when a write failed during the run (`summary` is nil) or
    ///   when closing a sink failed (`summary` is the run's).
    public func finish() throws(RunFailure) -> RunSummary {
        if let result { return try result.get() }
        // From here the session closes its sinks itself: the watchdog must not (and, if it
        // already has, this thread parks until it ends the process).
        watch?.acknowledge()
        defer { if let watch { InterruptWatchdog.unwatch(watch) } }
        if writeFailure == nil {
            do { try start() } catch { writeFailure = error }
        }
        watch?.acknowledge() // a session finished before it ran registers in `start()`
        let outcome = ended ?? .interrupted
        ended = outcome
        let steps: Int
        if case .diverged(let step, _) = outcome { steps = step } else { steps = stepper.stepCount }
        let simTime = time(ofStep: steps)
        if let failure = writeFailure {
            let end = TraceEnd.error(
                "trace write failed: \(failure)", steps: stepper.stepCount,
                simTime: stepper.simulatedTime, droppedTime: stepper.droppedTime)
            // The trace is broken already: close what can be closed so it ends in a whole line.
            for sink in sinks { try? sink.finish(end: end) }
            let failed = RunFailure(summary: nil, message: "\(failure)", writeError: failure as? TraceWriteError)
            result = .failure(failed)
            throw failed
        }
        var summary = RunSummary(
            outcome: outcome, steps: steps, totalSteps: totalSteps, simulatedTime: simTime,
            droppedTime: stepper.droppedTime, frames: stepper.frameCount, records: recording.records,
            wallTime: RealTimeClock.now() - startedAt, digest: recording.digest.text, traceBytes: nil,
            engineDiagnostics: world.engineDiagnostics)
        var end = TraceEnd(outcome: outcome, steps: steps, simTime: simTime, droppedTime: stepper.droppedTime)
        end.counters = counters
        var closeFailure: (any Error)?
        // Events never skipped: those after the last record (a run interrupted or diverged
        // between records) come before the end line.
        do { try deliverPendingEvents(to: sinks) } catch { closeFailure = error }
        for sink in sinks {
            do { try sink.finish(end: end) } catch { closeFailure = closeFailure ?? error }
        }
        if let writer = recording.writer {
            summary.traceBytes = writer.bytesWritten
            // The writer thread's last records belong to the run's cost.
            summary.wallTime = RealTimeClock.now() - startedAt
        }
        if let closeFailure {
            let failed = RunFailure(
                summary: summary, message: "\(closeFailure)", writeError: closeFailure as? TraceWriteError)
            result = .failure(failed)
            throw failed
        }
        result = .success(summary)
        return summary
    }

    // MARK: - Stepping

    deinit {
        states.deallocate()
        previousStates.deallocate()
    }

    /// Storage for `count` state values, zeroed.
    private static func allocateStates(count: Int) -> UnsafeMutableBufferPointer<Double> {
        let storage = UnsafeMutableBufferPointer<Double>.allocate(capacity: count)
        storage.initialize(repeating: 0)
        return storage
    }

    private enum StopSignal: Error { case stop }

    /// Records step 0 (the state before any step), once.
    private func start() throws {
        guard !started else { return }
        started = true
        startedAt = RealTimeClock.now()
        let watch = RunWatch(dt: dt, writer: recording.writer)
        self.watch = watch
        recording.watch = watch
        InterruptWatchdog.watch(watch)
        do { try emit(step: 0) } catch { writeFailure = error; throw error }
    }

    /// Evaluates the track for step `n` and applies it: the one place gravity is taken
    /// from the track (see the gravity rule above).
    private func applyGravity(forStep n: Int) {
        appliedGravity = track.gravity(at: time(ofStep: n))
        world.setGravity(appliedGravity)
    }

    private func physicsStep(_ n: Int) throws {
        world.step(dt: dt)
        let reached = n + 1
        for expectations in expectationSinks { expectations.stepTaken() }
        afterStep(reached: reached)
        applyTimeline(step: reached)
        if pendingEvents.count >= Self.maxHeldEvents { try deliverPendingEvents(to: sinks) }
        world.driveKinematicBodies(step: reached, dt: dt)
        swap(&states, &previousStates)
        let count = world.bodyCount * BodyStateLayout.count
        if states.count != count {
            // Bodies spawned or removed: the buffers follow them.
            states.deallocate()
            states = Self.allocateStates(count: count)
        }
        // Read into the buffer of the step before last (no allocation), checked in the same pass.
        let divergence = world.readStatesFindingDivergence(into: states)
        if let divergence {
            ended = .diverged(step: reached, divergence: divergence)
            throw StopSignal.stop
        }
        applyGravity(forStep: reached)
        if reached % every == 0 || reached == totalSteps {
            try emit(step: reached)
        } else if !everyStepSinks.isEmpty {
            try emit(step: reached, to: everyStepSinks)
        }
    }

    // MARK: - Changes between steps

    /// (1) of step `n`: the timeline's actions due at `n`, with their events.
    private func applyTimeline(step n: Int) {
        guard player?.nextStep.map({ $0 <= n }) == true else { return }
        for event in player!.apply(step: n, to: world) { queue(event) }
    }

    /// The post-step slot of step `reached − 1` (docs/formats.md §8 (5) and (6)): called after
    /// each `cpSpaceStep`, before the actions due at `reached`: the collision rules' actions
    /// queued during the step, in the order Chipmunk called the handlers, then culling
    /// (`RulePlayer.afterStep(world:)`). The changes belong to state `reached`: their events are
    /// stamped with step `reached`.
    private func afterStep(reached: Int) {
        guard rules != nil else { return }
        let t = time(ofStep: reached)
        for change in rules!.afterStep(world: world) { queue(TraceEvent(step: reached, t: t, change: change)) }
    }

    /// The rules' counters now, in order of first appearance in the scenario (for the end line).
    public var counters: [TraceCounter] {
        rules?.counters.map { TraceCounter(name: $0.name, value: $0.value) } ?? []
    }

    /// Queues `event` for every sink, each given it before its next record.
    private func queue(_ event: TraceEvent) {
        pendingEvents.append(event)
        if !everyStepSinks.isEmpty { pendingEveryStepEvents.append(event) }
    }

    /// Gives each of `receivers` the events waiting for it (the every-step sinks theirs, the
    /// others theirs) and clears what they were given.
    private func deliverPendingEvents(to receivers: [any RecordSink]) throws {
        if pendingEvents.isEmpty && pendingEveryStepEvents.isEmpty { return }
        peakHeldEvents = max(peakHeldEvents, pendingEvents.count, pendingEveryStepEvents.count)
        var gaveRecorded = false, gaveEveryStep = false
        for sink in receivers {
            if sink.recordsEveryStep {
                gaveEveryStep = true
                for event in pendingEveryStepEvents { try sink.event(event) }
            } else {
                gaveRecorded = true
                for event in pendingEvents { try sink.event(event) }
            }
        }
        if gaveRecorded { pendingEvents.removeAll() }
        if gaveEveryStep { pendingEveryStepEvents.removeAll() }
    }

    /// Whether events wait for any sink (checked before calling `deliverPendingEvents`, which
    /// most steps do not need).
    private var hasPendingEvents: Bool { !pendingEvents.isEmpty || !pendingEveryStepEvents.isEmpty }

    /// Record `step` to every sink: the recording one, then the caller's in order. The same
    /// as `emit(step:to: sinks)`, written for the step loop: the properties are read here,
    /// not passed (a passed array is retained for the call), and the recording sink, a
    /// concrete `let`, is called without a retain.
    private func emit(step: Int) throws {
        if hasPendingEvents { try deliverPendingEvents(to: sinks) }
        let t = time(ofStep: step)
        let g = appliedGravity
        let buffer = UnsafeBufferPointer(states)
        try recording.record(step: step, time: t, gravity: g, states: buffer)
        for i in 0..<callerSinks.count {
            try callerSinks[i].record(step: step, time: t, gravity: g, states: buffer)
        }
    }

    private func emit(step: Int, to receivers: [any RecordSink]) throws {
        try deliverPendingEvents(to: receivers)
        let t = time(ofStep: step)
        let g = appliedGravity
        let buffer = UnsafeBufferPointer(states)
        // By index: even an unoptimized build then allocates nothing per sink.
        for i in 0..<receivers.count {
            try receivers[i].record(step: step, time: t, gravity: g, states: buffer)
        }
    }
}

/// Forwards records to the trace writer (when there is one) or keeps the digest itself,
/// so a run without a trace still reports the digest its trace would have.
final class RecordingSink: RecordSink {
    var writer: TraceWriter?
    /// The hand-off rule with the interrupt watchdog: every writer call is marked.
    var watch: RunWatch?
    @exclusivity(unchecked) private var ownDigest = TraceDigest()
    @exclusivity(unchecked) private(set) var records = 0

    init(writer: TraceWriter?) {
        self.writer = writer
    }

    /// The digest of the records so far (the writer's, waiting for its thread, when there is one).
    var digest: TraceDigest { writer?.digestValue ?? ownDigest }

    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        records += 1
        if let writer {
            // Past step 0 the session has checked the states (it stops before recording one
            // beyond `World.divergenceLimit`): the writer need not check them again.
            if step == 0 {
                try writing { try writer.writeRecord(step: step, t: time, gravity: gravity, states: states) }
            } else {
                try writing { try writer.writeCheckedRecord(step: step, t: time, gravity: gravity, states: states) }
            }
        } else {
            ownDigest.addRecord(gravity: gravity, states: states)
        }
    }

    func event(_ event: TraceEvent) throws {
        guard let writer else { return }
        writing { writer.writeEvent(event) }
    }

    func finish(end: TraceEnd) throws {
        try writing { try writer?.finish(end) }
    }

    private func writing<R>(_ body: () throws -> R) rethrows -> R {
        guard let watch else { return try body() }
        return try watch.writing(body)
    }
}
