/// What the live view is asked to do.
@_spi(Tools) public struct LiveViewOptions: Sendable {
    /// Display frames per second, paced on the monotonic clock (like `CADisplayLink`).
    public var fps: Double = 60
    /// Record every `every`-th step when a trace is written.
    public var every: Int = 1
    /// Steps to run instead of the scenario's duration.
    public var totalSteps: Int?
    /// Write the live run's trace here (restarted with the run on `r`).
    public var tracePath: String?
    /// Arrow keys turn gravity (a `LiveTiltTrack` replaces the scenario's gravity input).
    public var interactive = false
    /// Orientation and g of the live track's samples, so that a replay maps them back identically.
    public var tiltOrientation: Orientation = .portrait
    public var tiltG: Double = 980
    /// Leave the view by itself when the run reaches its last step (for scripted use).
    public var exitAtEnd = false
    /// Tint crates and the HUD's budget warning with ANSI colours (off for `NO_COLOR`, `TERM=dumb`).
    public var colour = true
    /// What the run is made from, for the trace header (not written in interactive mode,
    /// whose gravity comes from the keys).
    public var traceSource: TraceHeader.Source?
    /// `q` (or Esc) ends the run as `complete` at the last step taken instead of
    /// `interrupted` (`tiltbox record`: quitting is how a recording is stopped).
    public var quitCompletes = false

    public init() {}
}

/// How a live session ended.
@_spi(Tools) public struct LiveResult: Sendable {
    /// The outcome of the last run shown (after restarts, the latest one).
    public var outcome: RunOutcome
    public var summary: RunSummary
    /// The live track of the last run, in interactive mode.
    public var liveTrack: LiveTiltTrack?
    /// True when the user quit with `q` or Esc (not Ctrl-C).
    public var quitByKey: Bool
}

/// The full-screen terminal view on two threads. The calling thread is the physics
/// thread: it drives a `RunSession` from the display clock (frames paced at `fps`, each
/// measured frame fed to the session), answers keys (q/Esc quit, space pause, r restart,
/// arrows tilt when interactive) and publishes each frame to a `LiveStateBuffer`, the
/// session's sink for the states of every step. A `LiveDrawer` thread draws the latest
/// published frame, interpolated between its last two steps. The run, and so its trace, is
/// decided by the physics thread alone, exactly as a headless run from the same frames.
@_spi(Tools) public final class LiveView {
    private let scenario: Scenario
    private let makeTrack: () throws -> any GravityTrack
    private let options: LiveViewOptions
    private let terminal: Terminal
    private let buffer = LiveStateBuffer()

    private var session: RunSession
    private var liveTrack: LiveTiltTrack?
    private var paused = false
    private var generation = 0
    private var physicsSecondsPerFrame = 0.0

    /// A view of `scenario` on `terminal`, not started yet.
    ///
    /// - Parameters:
    ///   - scenario: the scenario to run and draw.
    ///   - options: frame rate, interactive or scripted gravity, trace and colour choices.
    ///   - terminal: the controlling terminal to draw on and read keys from.
    ///   - makeTrack: builds the scenario's gravity track (called again on restart);
    ///     unused in interactive mode, where the keys steer gravity.
    public init(
        scenario: Scenario, options: LiveViewOptions, terminal: Terminal,
        makeTrack: @escaping () throws -> any GravityTrack
    ) throws {
        self.scenario = scenario
        self.options = options
        self.terminal = terminal
        self.makeTrack = makeTrack
        (session, liveTrack) = try LiveView.makeSession(
            scenario: scenario, options: options, buffer: buffer,
            makeTrack: makeTrack)
    }

    /// The session for one run (the first, or a restart): the scenario's track, or a
    /// live one steered by the keys in interactive mode, with the view's state buffer as a sink.
    private static func makeSession(
        scenario: Scenario, options: LiveViewOptions, buffer: LiveStateBuffer,
        makeTrack: () throws -> any GravityTrack
    ) throws -> (RunSession, LiveTiltTrack?) {
        var live: LiveTiltTrack?
        let track: any GravityTrack
        if options.interactive {
            let t = LiveTiltTrack(
                initialGravity: scenario.world.gravity, orientation: options.tiltOrientation, g: options.tiltG)
            live = t
            track = t
        } else {
            track = try makeTrack()
        }
        buffer.begin(scenario: scenario)
        guard let path = options.tracePath else {
            return (
                RunSession(
                    scenario: scenario, track: track, totalSteps: options.totalSteps, every: options.every,
                    sinks: [buffer]), live
            )
        }
        let trace = RunSession.TraceOutput(
            path: path, tilt: options.interactive ? "live" : nil,
            source: options.interactive ? nil : options.traceSource)
        return (
            try RunSession(
                scenario: scenario, track: track, totalSteps: options.totalSteps, every: options.every,
                trace: trace, sinks: [buffer]), live
        )
    }

    /// Runs until q/Esc, Ctrl-C (or SIGTERM), or the end with `exitAtEnd`. The terminal is
    /// restored on every way out, errors included, after the drawing thread has ended.
    ///
    /// When the terminal cannot be written (it went away), the run stops there, its trace
    /// is closed as `interrupted`, and the write error is thrown (`DescriptorWriteError`).
    public func run() throws -> LiveResult {
        defer { terminal.restore() }
        var terminalFailure: DescriptorWriteError?
        do { try terminal.start() } catch { terminalFailure = error }
        let drawer = LiveDrawer(buffer: buffer)
        defer { drawer.stop() }
        if terminalFailure == nil {
            drawer.start(
                .init(
                    scenario: scenario, screen: terminal.screen, colour: options.colour,
                    interactive: options.interactive, frameBudget: 1 / options.fps))
        }
        var clock = RealTimeClock(fps: options.fps)
        var quitByKey = false
        loop: while terminalFailure == nil {
            let frame = clock.nextFrameDuration()
            if InterruptSignal.isRaised { break }
            if let failure = drawer.failure {
                terminalFailure = failure
                break
            }
            for key in terminal.readKeys() {
                switch key {
                case .character("q"), .character("Q"), .escape:
                    quitByKey = true
                    break loop
                case .character(" "):
                    paused.toggle()
                case .character("r"), .character("R"):
                    try restart()
                case .left where options.interactive:
                    tilt(by: -1)
                case .right where options.interactive:
                    tilt(by: 1)
                default:
                    break
                }
            }
            var steps = 0
            if !paused && session.outcome == nil {
                let t0 = RealTimeClock.now()
                do {
                    steps = try session.advance(frameDuration: frame, shouldStop: { InterruptSignal.isRaised }).steps
                } catch {
                    // A trace write failed: close what can be closed, report the write.
                    drawer.stop()
                    _ = try? session.finish()
                    throw error
                }
                physicsSecondsPerFrame = HUD.runningAverage(physicsSecondsPerFrame, RealTimeClock.now() - t0)
            }
            publish(stepsInLastFrame: steps)
            drawer.frameReady()
            if options.exitAtEnd, session.outcome != nil { break }
            if case .diverged = session.outcome { break }
        }
        // The last frame published is drawn before the terminal is restored.
        drawer.stop()
        if terminalFailure == nil, let failure = drawer.failure { terminalFailure = failure }
        let result = try finish(quitByKey: quitByKey)
        if let terminalFailure { throw terminalFailure }
        return result
    }

    /// Hands the frame's alpha and HUD figures to the drawer, with the states the buffer
    /// has recorded.
    private func publish(stepsInLastFrame: Int) {
        var frame = LiveFrame()
        frame.alpha = session.outcome == nil ? session.alpha : 1
        frame.droppedTime = session.droppedTime
        frame.stepsInLastFrame = stepsInLastFrame
        frame.physicsSecondsPerFrame = physicsSecondsPerFrame
        frame.paused = paused
        frame.finished = session.outcome != nil
        frame.generation = generation
        buffer.publish(frame)
    }

    private func tilt(by steps: Int) {
        guard let liveTrack else { return }
        session.scheduleGravityChange { liveTrack.turn(by: steps, at: $0) }
    }

    private func restart() throws {
        session.interrupt()
        _ = try? session.finish()
        (session, liveTrack) = try LiveView.makeSession(
            scenario: scenario, options: options, buffer: buffer,
            makeTrack: makeTrack)
        paused = false
        generation += 1
    }

    private func finish(quitByKey: Bool) throws -> LiveResult {
        // A write that fails here is reported by `finish`, which closes the trace.
        if quitByKey && options.quitCompletes { try? session.concludeAtCurrentStep() }
        let summary: RunSummary
        do { summary = try session.finish() } catch { throw error.writeError ?? error }
        return LiveResult(outcome: summary.outcome, summary: summary, liveTrack: liveTrack, quitByKey: quitByKey)
    }
}
