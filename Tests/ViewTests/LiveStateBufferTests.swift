import Foundation
import Synchronization
import Testing

@_spi(Tools) @testable import Tiltbox

/// The hand-off from the live view's physics thread to its drawing thread: the state
/// buffer is the session's every-step sink, and a frame the drawer takes is never torn.
@Suite struct LiveStateBufferTests {
    /// The writer's side of a concurrent test, done once every step is published.
    final class WriterDone: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Records `step` with every value equal to the step number, gravity `(step, −step)`.
    static func record(_ buffer: LiveStateBuffer, step: Int, values: [Double]) throws {
        try values.withUnsafeBufferPointer {
            try buffer.record(
                step: step, time: Double(step) / 120,
                gravity: Vec2(Double(step), -Double(step)), states: $0)
        }
    }

    @Test func aFrameTakenWhileThePhysicsThreadRecordsAndPublishesHoldsTwoConsecutiveStepsAndTheirFigures() throws {
        let buffer = LiveStateBuffer()
        let done = WriterDone()
        let steps = 20_001 // the last step, 20 000, is published
        let values = 600 // 100 crates
        let writer = Thread {
            var states = [Double](repeating: 0, count: values)
            for step in 0..<steps {
                for i in states.indices { states[i] = Double(step) }
                try? Self.record(buffer, step: step, values: states)
                // Publish after one, two or three steps, like frames of varying length.
                if step % 3 != 1 {
                    var figures = LiveFrame()
                    figures.alpha = Double(step % 7) / 7
                    figures.stepsInLastFrame = step
                    buffer.publish(figures)
                }
            }
            done.flag.store(true, ordering: .releasing)
        }
        writer.start()
        var seen = Set<Int>()
        var torn: [String] = []
        var lastSequence = 0
        while !done.flag.load(ordering: .acquiring) || seen.isEmpty {
            let frame = buffer.latest()
            guard frame.sequence > 0 else { continue }
            if frame.sequence < lastSequence {
                torn.append("sequence went back from \(lastSequence) to \(frame.sequence)")
            }
            lastSequence = frame.sequence
            seen.insert(frame.step)
            let step = Double(frame.step)
            let before = frame.step == 0 ? step : step - 1
            if frame.current.count != values || frame.current.contains(where: { $0 != step }) {
                torn.append("current of step \(frame.step) holds \(Set(frame.current).sorted())")
            }
            if frame.previous.count != values || frame.previous.contains(where: { $0 != before }) {
                torn.append("previous of step \(frame.step) holds \(Set(frame.previous).sorted())")
            }
            if frame.gravity != Vec2(step, -step) || frame.time != step / 120 {
                torn.append("step \(frame.step) shows gravity \(frame.gravity) at \(frame.time) s")
            }
            if frame.stepsInLastFrame != frame.step || frame.alpha != Double(frame.step % 7) / 7 {
                torn.append("step \(frame.step) carries the figures of step \(frame.stepsInLastFrame)")
            }
            if torn.count > 5 { break }
        }
        #expect(torn.isEmpty, "\(torn)")
        // The reader really ran alongside the writer, not only after it.
        #expect(seen.count > 10, "the reader saw \(seen.count) distinct steps")
        let last = buffer.latest()
        #expect(last.step == steps - 1 && last.current.allSatisfy { $0 == Double(steps - 1) })
    }

    @Test func stepZeroStartsAfreshAndAStepAlreadyHeldChangesNothing() throws {
        let buffer = LiveStateBuffer()
        try Self.record(buffer, step: 0, values: [0, 0])
        try Self.record(buffer, step: 1, values: [1, 1])
        try Self.record(buffer, step: 1, values: [9, 9])
        buffer.publish(LiveFrame())
        var frame = buffer.latest()
        #expect(frame.step == 1 && frame.previous == [0, 0] && frame.current == [1, 1])
        // A restart: the new run's step 0 is both states.
        try Self.record(buffer, step: 0, values: [5, 5])
        buffer.publish(LiveFrame())
        frame = buffer.latest()
        #expect(frame.step == 0 && frame.previous == [5, 5] && frame.current == [5, 5] && frame.sequence == 2)
    }

    @Test func theSessionGivesTheBufferEveryStepAsItsOwnStatesWhileTheTraceKeepsItsEvery() throws {
        let scenario = BenchmarkPile.scenario(n: 20)
        let records = RunSessionRecords()
        let buffer = LiveStateBuffer()
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: 40,
            every: 7, sinks: [records, buffer])
        var frames = 0
        while session.outcome == nil {
            try session.advance(frameDuration: 1.0 / 60)
            buffer.publish(LiveFrame())
            let frame = buffer.latest()
            #expect(frame.step == session.stepCount)
            #expect(frame.gravity == session.gravity)
            #expect(frame.current == session.withCurrentStates { Array($0) })
            #expect(frame.previous == session.withPreviousStates { Array($0) })
            frames += 1
        }
        #expect(frames == 20)
        #expect(records.steps == [0, 7, 14, 21, 28, 35, 40])
        try session.concludeAtCurrentStep()
        _ = try session.finish()
        #expect(buffer.latest().step == 40)
    }
}

/// The steps a plain (recorded-steps-only) sink is given.
final class RunSessionRecords: RecordSink {
    var steps: [Int] = []
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        steps.append(step)
    }

    @Test func theBufferFollowsSpawnsAndRemovalsWithStableColoursAndNoBlendAcrossAChange() throws {
        let scenario = Scenario(
            name: "s", world: WorldSettings(size: Vec2(480, 320)),
            crates: [CrateSpec(id: "a", position: Vec2(100, 100)), CrateSpec(id: "b", position: Vec2(200, 100))])
        let buffer = LiveStateBuffer()
        func record(step: Int, value: Double) throws {
            try [Double](repeating: value, count: 12).withUnsafeBufferPointer {
                try buffer.record(step: step, time: Double(step) / 10, gravity: .zero, states: $0)
            }
        }
        buffer.begin(scenario: scenario)
        try record(step: 0, value: 0)
        buffer.publish(LiveFrame())
        #expect(buffer.latest().outline == nil) // nothing changed: the scenario's own outline
        let circle = ShapeGeometry.circle(radius: 8, offset: .zero)
        try buffer.event(
            TraceEvent(
                step: 1, t: 0.1,
                change: .spawn(
                    TraceEvent.Spawn(body: "ball", type: .dynamic, shapes: [circle], size: Vec2(16, 16), mass: 1))))
        try buffer.event(TraceEvent(step: 1, t: 0.1, change: .remove(body: "a", reason: .timeline)))
        try record(step: 1, value: 1)
        buffer.publish(LiveFrame())
        let frame = buffer.latest()
        #expect(frame.outline?.bodies.map(\.shapes) == [[.box(size: Vec2(32, 32), radius: 0)], [circle]])
        #expect(frame.colourIndices == [1, 2]) // b keeps its colour; the ball takes the next
        #expect(frame.previous == frame.current) // not blended from the bodies of step 0
    }
}
