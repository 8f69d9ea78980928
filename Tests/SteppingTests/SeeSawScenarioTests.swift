import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The shipped see-saw: a ball rolls down the polygon ramp onto a plank on a pivot whose
/// swing a rotary limit holds to ±0.35 rad. The crate tips the plank to one stop, the
/// ball's landing throws it to the other, and the limit holds at both.
@Suite struct SeeSawScenarioTests {
    @Test func thePlankSwingsFromStopToStopAndTheRotaryLimitHolds() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let scenario = try ScenarioLoader.load(path: root.appendingPathComponent("Scenarios/see-saw.json").path)
        let plank = try #require(scenario.bodies.firstIndex { $0.id == "plank" }) + scenario.crates.count
        let ball = try #require(scenario.bodies.firstIndex { $0.id == "ball" }) + scenario.crates.count
        let collector = KinematicBodyRunTests.Collector()
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [collector])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        let angles = collector.records.map { $0.states[plank * BodyStateLayout.count + BodyStateLayout.angle] }
        let lowest = try #require(angles.min()), highest = try #require(angles.max())
        // Both stops are reached; a joint in Chipmunk is soft (it corrects an error over
        // the next steps), so the ball's landing pushes past the stop by a little, and the
        // plank comes back to rest on it.
        #expect(lowest < -0.34 && lowest > -0.37, "lowest plank angle \(lowest)")
        #expect(highest > 0.34 && highest < 0.38, "highest plank angle \(highest)")
        let last = try #require(angles.last)
        #expect(abs(last - 0.35) < 1e-3, "the plank rests on its stop at the end: \(last)")
        // The ball came down the ramp (it starts at x = 30, on the ramp's high end).
        let ballX = collector.records.map { $0.states[ball * BodyStateLayout.count + BodyStateLayout.x] }
        #expect((ballX.max() ?? 0) > 200)
    }
}
