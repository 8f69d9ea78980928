import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A kinematic body with a `path`, run through `RunSession`: before every physics step n
/// the body is set to the path's pose at n·dt, so each record holds that pose, and what
/// rests on it is carried along.
@Suite struct KinematicBodyRunTests {
    /// Keeps every record's states.
    final class Collector: RecordSink {
        var records: [(step: Int, states: [Double])] = []
        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            records.append((step, Array(states)))
        }
    }

    static func platformScenario() throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try ScenarioLoader.load(path: root.appendingPathComponent("Scenarios/moving-platform.json").path)
    }

    @Test func aKinematicBodysRecordedPoseIsItsPathAtEveryStep() throws {
        let scenario = try Self.platformScenario()
        let index = scenario.crates.count // the platform, first body after the crates
        let path = try #require(scenario.bodies[0].path)
        let track = KinematicPathTrack(path, bodyAngle: scenario.bodies[0].angle)
        let collector = Collector()
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [collector])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        #expect(collector.records.count == scenario.totalSteps + 1)
        var worst = 0.0
        var moved = 0.0
        for record in collector.records {
            let base = index * BodyStateLayout.count
            let pose = track.pose(at: Double(record.step) * scenario.timestep.dt)
            worst = max(
                worst, abs(record.states[base + BodyStateLayout.x] - pose.position.x),
                abs(record.states[base + BodyStateLayout.y] - pose.position.y),
                abs(record.states[base + BodyStateLayout.angle] - pose.angle))
            moved = max(moved, record.states[base + BodyStateLayout.x] - 150)
        }
        #expect(worst <= 1e-9, "largest distance from the path: \(worst)")
        #expect(moved > 300, "the platform travels along its path (\(moved))")
    }

    @Test func aCrateRestingOnAMovingPlatformIsCarriedWithIt() throws {
        let scenario = try Self.platformScenario()
        let collector = Collector()
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [collector])
        var clock = SteadyClock(hz: 60)
        _ = try session.run(clock: &clock)
        // At t = 3.5 s the platform has arrived at x = 490 (from 150); it rests there until it turns back.
        let arrival = Int((3.5 * scenario.timestep.hz).rounded())
        let start = collector.records[0].states, there = collector.records[arrival].states
        let platform = scenario.crates.count * BodyStateLayout.count
        let platformShift = there[platform] - start[platform]
        #expect(abs(platformShift - 340) < 1e-9)
        for crate in 0..<scenario.crates.count {
            let base = crate * BodyStateLayout.count
            let shift = there[base] - start[base]
            #expect(
                abs(shift - platformShift) < 5,
                "crate \(scenario.crates[crate].id) moved \(shift), the platform \(platformShift)")
            #expect(
                there[base + 1] > 88,
                "crate \(scenario.crates[crate].id) is still on the platform (y = \(there[base + 1]))")
        }
    }
}
