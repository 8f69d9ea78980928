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

/// Timeline `set`s that met Chipmunk's blind spots: a sleeping body whose type changes, a body
/// with a centre-of-gravity offset set to a pose, a body a rule made static set by the timeline.
@Suite struct TimelineSetGuardTests {
    static func run(_ text: String, steps: Int, before: (Int, World) -> Void = { _, _ in }) throws
        -> (World, [TraceEvent])
    {
        let scenario = try ScenarioLoader.parse(text: text, file: "t.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        var player = TimelinePlayer(timeline: scenario.timeline, dt: scenario.timestep.dt)
        var events: [TraceEvent] = []
        for n in 0..<steps {
            before(n, world)
            events += player.apply(step: n, to: world)
            world.step(dt: scenario.timestep.dt)
        }
        return (world, events)
    }

    @Test func aTypeChangeOfASleepingBodyWakesItFirst() throws {
        for type in ["kinematic", "static"] {
            // The ball rests on the floor and falls asleep within a second; at t = 1.5 it changes type.
            let text = #"""
                {"format": "tiltbox-scenario/1", "world": {"size": [200, 200], "gravity": [0, -100], "sleepTimeThreshold": 0.1},
                 "duration": 2, "bodies": [{"id": "ball", "position": [100, 6], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}],
                 "timeline": [{"t": 1.5, "set": {"body": "ball", "type": "\#(type)"}}]}
                """#
            var asleep = false
            let (world, _) = try Self.run(text, steps: 200) { n, world in
                if n == 180 { asleep = world.bodies[0].isSleeping }
            }
            #expect(asleep, "the ball sleeps before its type changes")
            #expect(world.bodies[0].type.rawValue == type && !world.bodies[0].isSleeping)
        }
    }

    @Test func aSetOfPositionAndAngleLeavesTheOriginAtThePositionWithACentreOfGravityOffset() throws {
        let text = #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [200, 200], "gravity": [0, 0]}, "duration": 1,
             "bodies": [{"id": "b", "position": [50, 50], "mass": 1, "moment": 100, "centerOfGravity": [10, 0],
                         "shapes": [{"box": {"size": [30, 10]}}]}],
             "timeline": [{"t": 0, "set": {"body": "b", "position": [100, 120], "angle": 1.5}}]}
            """#
        let scenario = try ScenarioLoader.parse(text: text, file: "t.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        var player = TimelinePlayer(timeline: scenario.timeline, dt: scenario.timestep.dt)
        player.apply(step: 0, to: world)
        let state = world.bodies[0].state
        #expect(abs(state.position.x - 100) < 1e-9 && abs(state.position.y - 120) < 1e-9, "\(state.position)")
        #expect(state.angle == 1.5)
    }

    @Test func aTimelineSetOfABodyMadeStaticSinceTheWalkIsSkipped() throws {
        let text = #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [200, 200]}, "timestep": {"hz": 10}, "duration": 1,
             "bodies": [{"id": "plate", "position": [100, 50], "shapes": [{"box": {"size": [60, 10]}, "mass": 1}]}],
             "timeline": [{"t": 0.5, "set": {"body": "plate", "position": [100, 150]}}]}
            """#
        // As a rule's set would: the plate becomes static after the walk before the run.
        let (world, events) = try Self.run(text, steps: 8) { n, world in
            if n == 2 { world.setBody("plate", type: .static) }
        }
        #expect(events.map(\.change) == [.skipped(action: "timeline[0]", body: "plate")])
        #expect(world.bodies[0].state.position.y < 60, "the static plate stays where it collides")
    }
}
