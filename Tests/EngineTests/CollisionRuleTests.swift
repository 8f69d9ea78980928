import Testing

@_spi(Tools) @testable import Tiltbox

/// Collision rules (docs/formats.md §8) at the World level: Chipmunk's handlers record their
/// calls, `RulePlayer` runs the actions after the step, then culling.
@Suite(.serialized) struct CollisionRuleTests {
    /// The events of `steps` steps of `text`, each with the step whose record follows it.
    static func events(_ text: String, steps: Int) throws -> (
        events: [(step: Int, event: TraceEvent.Change)], world: World, player: RulePlayer
    ) {
        let scenario = try ScenarioLoader.parse(text: text, file: "rules.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        var player = RulePlayer(scenario: scenario)
        var all: [(Int, TraceEvent.Change)] = []
        for n in 0..<steps {
            world.step(dt: scenario.timestep.dt)
            all += player.afterStep(world: world).map { (n + 1, $0) }
        }
        return (all, world, player)
    }

    /// A ball of type "ball" falling from y = 40 onto a static floor of type "floor" (top at y = 20).
    static func floorScene(_ rules: String, walls: Bool = false) -> String {
        """
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "walls": {"box": \(walls)},
         "bodies": [{"id": "floor", "type": "static", "position": [240, 10],
                     "shapes": [{"box": {"size": [400, 20]}, "collisionType": "floor"}]},
                    {"id": "ball", "position": [240, 40], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]}],
         "rules": \(rules)}
        """
    }

    @Test func aPairRuleIsCalledBeforeAWildcardRuleWithBodiesInEachRulesOrder() throws {
        let (events, _, _) = try Self.events(
            Self.floorScene(
                #"[{"on": "begin", "between": ["ball", "*"]}, {"on": "begin", "between": ["floor", "ball"]}]"#),
            steps: 60)
        #expect(events.count == 2)
        #expect(
            events.map(\.event) == [
                .collision(.begin, a: "floor", b: "ball", rule: 1), .collision(.begin, a: "ball", b: "floor", rule: 0),
            ])
        // Both at the step of first contact: the ball falls 12 units at 980 units/s² (about 19 steps at 120 Hz).
        #expect(events[0].step == events[1].step && events[0].step > 10 && events[0].step < 30)
    }

    @Test func twoRulesOnOnePairWrittenInEitherOrderShareOneHandlerInFileOrder() throws {
        let (events, _, player) = try Self.events(
            Self.floorScene(
                #"""
                [{"on": "begin", "between": ["ball", "floor"], "do": [{"count": "hits"}]},
                 {"on": "begin", "between": ["floor", "ball"], "do": [{"count": "hits"}, {"count": "other"}]}]
                """#),
            steps: 60)
        #expect(
            events.map(\.event) == [
                .collision(.begin, a: "ball", b: "floor", rule: 0), .collision(.begin, a: "floor", b: "ball", rule: 1),
            ])
        #expect(player.counters.map(\.name) == ["hits", "other"])
        #expect(player.counters.map(\.value) == [2, 1])
    }

    @Test func aRuleRemovalRecordsTheRemovalThenTheSeparateItCausesAndNothingAfter() throws {
        let (events, world, _) = try Self.events(
            Self.floorScene(
                #"""
                [{"on": "begin", "between": ["ball", "floor"], "do": [{"remove": "a"}, {"remove": "a"}, {"impulse": {"body": "a", "impulse": [0, 1]}}]},
                 {"on": "separate", "between": ["floor", "*"]}]
                """#),
            steps: 120)
        let step = events.first?.step ?? 0
        #expect(
            events.map(\.event) == [
                .collision(.begin, a: "ball", b: "floor", rule: 0),
                .remove(body: "ball", reason: .rule),
                // The second remove of the same queue does nothing; the impulse on a body gone is skipped.
                .skipped(action: "rules[0]", body: "ball"),
                // Chipmunk calls separate when a touching shape is removed.
                .collision(.separate, a: "floor", b: "ball", rule: 1),
            ])
        #expect(events.allSatisfy { $0.step == step })
        #expect(world.bodyIDs == ["floor"])
    }

    @Test func anActionTheBodyCannotTakeIsSkippedWithAnEvent() throws {
        // b is the static floor: no impulse moves it, a set never moves a static body; a wall
        // (the space's static body) is never removed.
        let (events, world, _) = try Self.events(
            Self.floorScene(
                #"""
                [{"on": "begin", "between": ["ball", "*"],
                  "do": [{"impulse": {"body": "b", "impulse": [0, 1]}}, {"set": {"body": "b", "angle": 1}}, {"remove": "b"}]}]
                """#),
            steps: 60)
        #expect(
            events.map(\.event) == [
                .collision(.begin, a: "ball", b: "floor", rule: 0),
                .skipped(action: "rules[0]", body: "floor"),
                .skipped(action: "rules[0]", body: "floor"),
                .remove(body: "floor", reason: .rule),
            ])
        #expect(world.bodyIDs == ["ball"])
        let wall = try Self.events(
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]},
             "bodies": [{"id": "ball", "position": [240, 20], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]}],
             "rules": [{"on": "begin", "between": ["ball", "*"], "do": [{"remove": "b"}]}]}
            """#, steps: 60)
        #expect(
            wall.events.map(\.event) == [
                .collision(.begin, a: "ball", b: "static", rule: 0), .skipped(action: "rules[0]", body: "static"),
            ])
    }

    @Test func cullingRemovesADynamicBodyAtTheFirstStepItLiesBeyondTheMargin() throws {
        let text = #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320], "cull": {"margin": 10}}, "walls": {"box": false},
             "crates": [{"id": "fall", "position": [240, 5], "velocity": [0, -100]}, {"id": "stay", "position": [100, 100]}],
             "bodies": [{"id": "kin", "type": "kinematic", "position": [300, 100], "velocity": [0, -500],
                         "shapes": [{"box": {"size": [10, 10]}}]}]}
            """#
        let scenario = try ScenarioLoader.parse(text: text, file: "cull.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        var player = RulePlayer(scenario: scenario)
        var culledAt: Int?
        for n in 0..<30 {
            world.step(dt: scenario.timestep.dt)
            let y = world.states[0].position.y
            let events = player.afterStep(world: world)
            if culledAt == nil {
                #expect(events == (y < -10 ? [.remove(body: "fall", reason: .cull)] : []))
                if !events.isEmpty { culledAt = n + 1 }
            } else {
                #expect(events.isEmpty)
            }
        }
        #expect(culledAt != nil)
        #expect(world.states[0].position.y > 0)
        // The kinematic body left the world too, but only dynamic bodies are culled.
        #expect(world.bodyIDs == ["stay", "kin"])
        #expect(try #require(world.states.last).position.y < -10)
    }
}
