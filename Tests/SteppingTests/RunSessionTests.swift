import Testing

@_spi(Tools) @testable import Tiltbox

/// The run lifecycle every way of running shares: which gravity a record shows, and
/// how a session ends its sinks (exactly once, whatever ended the run).
@Suite struct RunSessionTests {
    /// Keeps every record and every end it is given; optionally fails at a step.
    final class LoggingSink: RecordSink {
        struct Failure: Error, CustomStringConvertible {
            var description: String { "disk full" }
        }
        var records: [(step: Int, gravity: Vec2, states: [Double])] = []
        var ends: [TraceEnd] = []
        var failAtStep: Int?

        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            if step == failAtStep { throw Failure() }
            records.append((step, gravity, Array(states)))
        }

        func finish(end: TraceEnd) throws {
            ends.append(end)
        }
    }

    /// Gravity `before` up to (not including) `t = changeStep·dt`, `after` from there on.
    struct SwitchTrack: GravityTrack {
        var before: Vec2
        var after: Vec2
        var changeTime: Double
        func gravity(at t: Double) -> Vec2 { t >= changeTime ? after : before }
    }

    /// One crate in open air, far from the walls for the few steps these tests take.
    static func freeCrate(duration: Double = 1) -> Scenario {
        Scenario(
            name: "free", world: WorldSettings(size: Vec2(480, 320)), duration: duration,
            walls: WallSettings(box: false), crates: [CrateSpec(id: "c", position: Vec2(240, 200))])
    }

    static func runaway() -> Scenario {
        Scenario(
            name: "runaway", world: WorldSettings(size: Vec2(480, 320)), duration: 20,
            walls: WallSettings(box: false),
            crates: [CrateSpec(id: "rocket", position: Vec2(300, 100), velocity: Vec2(1e99, 0))])
    }

    // MARK: - The gravity rule

    @Test func theRecordAtTheStepWhereTheTrackChangesShowsTheNewGravityAndTheNextStepUsesIt() throws {
        let scenario = Self.freeCrate()
        let dt = scenario.timestep.dt
        let k = 5
        let before = Vec2(0, -980), after = Vec2(300, -100)
        let sink = LoggingSink()
        let session = RunSession(
            scenario: scenario, track: SwitchTrack(before: before, after: after, changeTime: Double(k) * dt),
            totalSteps: 10, sinks: [sink])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        #expect(sink.records.map(\.step) == Array(0...10))
        #expect(sink.records[k - 1].gravity == before)
        #expect(sink.records[k].gravity == after)
        // Step k - 1 (record k - 1 to k) ran under the old value, step k under the new one:
        // with no damping and no contact, each step adds exactly g·dt to the velocity.
        func velocityChange(_ n: Int) -> Vec2 {
            let a = sink.records[n].states, b = sink.records[n + 1].states
            return Vec2(b[BodyStateLayout.vx] - a[BodyStateLayout.vx], b[BodyStateLayout.vy] - a[BodyStateLayout.vy])
        }
        #expect(abs(velocityChange(k - 1).x - before.x * dt) < 1e-9)
        #expect(abs(velocityChange(k - 1).y - before.y * dt) < 1e-9)
        #expect(abs(velocityChange(k).x - after.x * dt) < 1e-9)
        #expect(abs(velocityChange(k).y - after.y * dt) < 1e-9)
    }

    @Test func theGravityShownIsTheOneTheLastRecordCarries() throws {
        let scenario = Self.freeCrate()
        let dt = scenario.timestep.dt
        let sink = LoggingSink()
        let session = RunSession(
            scenario: scenario,
            track: SwitchTrack(before: Vec2(0, -980), after: Vec2(0, 500), changeTime: 3 * dt),
            totalSteps: 10, sinks: [sink])
        #expect(session.gravity == Vec2(0, -980))
        for _ in 0..<6 {
            try session.advance(frameDuration: dt)
            #expect(sink.records.last?.step == session.stepCount)
            #expect(sink.records.last?.gravity == session.gravity)
        }
        #expect(session.gravity == Vec2(0, 500))
    }

    @Test func aScheduledChangeTakesEffectFromTheFirstStepWhoseGravityIsNotYetApplied() throws {
        let scenario = Self.freeCrate()
        let dt = scenario.timestep.dt
        let live = LiveTiltTrack(initialGravity: Vec2(0, -980), orientation: .portrait, g: 980)
        let sink = LoggingSink()
        let session = RunSession(scenario: scenario, track: live, totalSteps: 10, sinks: [sink])
        for _ in 0..<3 { try session.advance(frameDuration: dt) }
        session.scheduleGravityChange { live.turn(by: 18, at: $0) } // 90°: gravity pulls towards +x
        while session.outcome == nil { try session.advance(frameDuration: dt) }
        // Record 3 was written before the change with the gravity step 3 uses; step 4 on turns.
        #expect(sink.records[3].gravity == Vec2(0, -980))
        #expect(abs(sink.records[4].gravity.x - 980) < 1e-9)
        #expect(abs(sink.records[4].states[BodyStateLayout.vx] - sink.records[3].states[BodyStateLayout.vx]) < 1e-9)
    }

    // MARK: - Finishing

    @Test func aCompleteRunEndsEverySinkOnceAndFinishingAgainReturnsTheSameSummary() throws {
        let first = LoggingSink(), second = LoggingSink()
        let session = RunSession(
            scenario: Self.freeCrate(), track: ConstantGravity(Vec2(0, -980)), totalSteps: 8,
            every: 3, sinks: [first, second])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        let summary = try session.finish()
        let again = try session.finish()
        for sink in [first, second] {
            #expect(sink.ends == [TraceEnd.complete(steps: 8, simTime: session.time(ofStep: 8), droppedTime: 0)])
            #expect(sink.records.map(\.step) == [0, 3, 6, 8])
        }
        #expect(summary.outcome == .complete && summary.steps == 8 && summary.records == 4)
        #expect(again.digest == summary.digest && again.records == summary.records)
    }

    @Test func anInterruptedRunEndsItsSinksAsInterruptedAtTheStepReached() throws {
        let sink = LoggingSink()
        let session = RunSession(scenario: Self.freeCrate(), track: ConstantGravity(Vec2(0, -980)), sinks: [sink])
        var frames = 0
        var clock = SteadyClock(hz: 60)
        let outcome = try session.run(
            clock: &clock,
            shouldStop: {
                frames += 1; return frames > 10
            })
        #expect(outcome == .interrupted)
        let summary = try session.finish()
        _ = try session.finish()
        #expect(summary.outcome == .interrupted && summary.steps == session.stepCount && summary.steps > 0)
        #expect(
            sink.ends == [TraceEnd.interrupted(steps: summary.steps, simTime: summary.simulatedTime, droppedTime: 0)])
    }

    @Test func aSessionFinishedBeforeAnyFrameRecordsStepZeroAndEndsInterrupted() throws {
        let sink = LoggingSink()
        let session = RunSession(scenario: Self.freeCrate(), track: ConstantGravity(Vec2(0, -980)), sinks: [sink])
        let summary = try session.finish()
        #expect(sink.records.map(\.step) == [0])
        #expect(summary.outcome == .interrupted && summary.records == 1)
        #expect(sink.ends.count == 1 && sink.ends.first?.kind == .interrupted)
    }

    @Test func aDivergedRunEndsItsSinksWithAnErrorNamingTheStepAndTheCrate() throws {
        let sink = LoggingSink()
        let session = RunSession(scenario: Self.runaway(), track: ConstantGravity(Vec2(0, -980)), sinks: [sink])
        var clock = SteadyClock(hz: 60)
        guard case .diverged(let step, let divergence) = try session.run(clock: &clock) else {
            Issue.record("expected a divergence, got \(String(describing: session.outcome))")
            return
        }
        let summary = try session.finish()
        _ = try session.finish()
        #expect(divergence.bodyID == "rocket")
        #expect(summary.steps == step)
        #expect(sink.ends.count == 1)
        #expect(sink.ends.first?.kind == .error)
        #expect(sink.ends.first?.message == "step \(step): \(divergence)")
        #expect(sink.ends.first?.steps == step)
    }

    @Test func aFailedWriteEndsEverySinkOnceWithTheFailureAndFinishThrowsIt() throws {
        let failing = LoggingSink(), watching = LoggingSink()
        failing.failAtStep = 4
        let session = RunSession(
            scenario: Self.freeCrate(), track: ConstantGravity(Vec2(0, -980)),
            sinks: [failing, watching])
        var clock = SteadyClock(hz: 60)
        #expect(throws: LoggingSink.Failure.self) { _ = try session.run(clock: &clock) }
        for _ in 0..<2 {
            do {
                _ = try session.finish()
                Issue.record("finish must report the failed write")
            } catch {
                #expect(error.summary == nil)
                #expect(error.message == "disk full")
            }
        }
        for sink in [failing, watching] {
            #expect(sink.ends.count == 1)
            #expect(sink.ends.first?.kind == .error)
            #expect(sink.ends.first?.message == "trace write failed: disk full")
            // The step whose record failed is not counted, as before sessions.
            #expect(sink.ends.first?.steps == 3)
        }
        #expect(failing.records.map(\.step) == [0, 1, 2, 3])
    }
}
