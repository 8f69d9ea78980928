import Testing

@_spi(Tools) @testable import Tiltbox

/// `TimelinePlayer` applying a loaded timeline to a world, step by step, in the order of
/// docs/formats.md §8: the bodies present after each step's actions.
@Suite struct TimelinePlayerTests {
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "timestep": {"hz": 10}, "duration": 2,
         "crates": [{"id": "c", "position": [100, 100]}],
         "timeline": [
           {"t": 0.1, "every": 0.2, "count": 3,
            "spawn": {"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}},
           {"t": 0.3, "joint": {"id": "p", "pivot": {"a": "ball#0", "b": "static", "anchor": [240, 300]}}},
           {"t": 0.4, "impulse": {"body": "ball#1", "impulse": [0, 100]}},
           {"t": 0.6, "remove": ["ball#0", "c"]},
           {"t": 0.7, "set": {"body": "ball#2", "position": [50, 50], "velocity": [0, 0]}}
         ]}
        """#

    @Test func theBodiesPresentFollowTheActionsDueAtEachStep() throws {
        let scenario = try ScenarioLoader.parse(text: Self.text, file: "t.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        var player = TimelinePlayer(timeline: scenario.timeline, dt: scenario.timestep.dt)
        var present: [[String]] = []
        var joints: [[String]] = []
        for n in 0...8 {
            player.apply(step: n, to: world)
            present.append(world.bodyIDs)
            joints.append(world.jointIDs)
            if n == 4 { #expect(world.bodies[2].state.velocity.y > 0) } // ball#1 got its impulse at step 4
            if n == 7 { #expect(world.bodies[1].state.position == Vec2(50, 50)) } // ball#2 set at step 7
            world.step(dt: scenario.timestep.dt)
        }
        #expect(
            present == [
                ["c"], ["c", "ball#0"], ["c", "ball#0"], ["c", "ball#0", "ball#1"], ["c", "ball#0", "ball#1"],
                ["c", "ball#0", "ball#1", "ball#2"], ["ball#1", "ball#2"], ["ball#1", "ball#2"], ["ball#1", "ball#2"],
            ])
        #expect(joints[2] == [] && joints[3] == ["p"] && joints[6] == []) // the pivot left with ball#0
        #expect(player.isFinished)
    }
}
