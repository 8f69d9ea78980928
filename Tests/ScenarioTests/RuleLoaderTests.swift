import Testing

@_spi(Tools) @testable import Tiltbox

/// The collision `rules` and `world.cull` of docs/formats.md §8 read from a file: types numbered,
/// counters in order of first appearance, and every refusal on one located line.
@Suite struct RuleLoaderTests {
    /// A scenario with a ball (type "ball"), a kinematic `pusher` on a path (type "pusher"), a goal
    /// sensor (type "goal") and `rules` on line 10; `world` extra keys on line 2.
    static func text(_ rules: String, world: String = "") -> String {
        """
        {"format": "tiltbox-scenario/1",
         "world": {"size": [480, 320]\(world)},
         "bodies": [{"id": "ball", "position": [240, 200], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]},
                    {"id": "pusher", "type": "kinematic", "position": [300, 100],
                     "shapes": [{"box": {"size": [10, 10]}, "collisionType": "pusher"}],
                     "path": {"keyframes": [{"t": 0, "position": [300, 100]}, {"t": 1, "position": [310, 100]}]}},
                    {"id": "goal", "type": "static", "position": [240, 20],
                     "shapes": [{"box": {"size": [40, 10]}, "sensor": true, "collisionType": "goal"}]}],
         "rules":
         \(rules)
        }
        """
    }

    @Test func rulesLoadInFileOrderWithTypeNumbersAndCountersInOrderOfFirstAppearance() throws {
        let scenario = try loadScenario(
            Self.text(
                """
                [{"on": "begin", "between": ["ball", "goal"], "do": [{"count": "goals"}, {"remove": "a"}]},
                 {"on": "separate", "between": ["goal", "*"], "do": [{"count": "leaves"}, {"count": "goals"},
                   {"impulse": {"body": "b", "impulse": [0, 10], "at": [1, 2]}}]},
                 {"on": "begin", "between": ["ball", "ball"]},
                 {"on": "begin", "between": ["pusher", "ball"], "do": [{"set": {"body": "b", "velocity": [0, 0], "type": "kinematic"}}]}]
                """, world: #", "cull": {"margin": 50}"#))
        #expect(scenario.rules.count == 4)
        #expect(scenario.counters == ["goals", "leaves"])
        #expect(scenario.cullMargin == 50)
        let first = scenario.rules[0], second = scenario.rules[1]
        #expect(first.on == .begin && first.typeA == "ball" && first.typeB == "goal")
        #expect(first.watch == CollisionWatch(phase: .begin, typeA: 1, typeB: 3))
        #expect(first.actions == [.count(0), .remove(.a)])
        #expect(second.watch == CollisionWatch(phase: .separate, typeA: 3, typeB: nil))
        #expect(
            second.actions == [
                .count(1), .count(0), .impulse(.b, TimelineImpulse(body: "b", impulse: Vec2(0, 10), at: Vec2(1, 2))),
            ])
        #expect(scenario.rules[2].actions.isEmpty)
        #expect(scenario.rules[3].actions == [.set(.b, BodySetting(body: "b", velocity: .zero, type: .kinematic))])
        #expect(scenario.worldDefinition.collisionWatches.count == 4)
    }

    @Test func aScenarioWithoutRulesHasNoneAndNoCulling() throws {
        let scenario = try loadScenario(Self.text("[]"))
        #expect(scenario.rules.isEmpty && scenario.counters.isEmpty && scenario.cullMargin == nil)
        #expect(scenario.worldDefinition.collisionWatches.isEmpty)
    }

    @Test func aSpawnedBodysCollisionTypeMayBeNamedByARule() throws {
        let text = Self.text(#"[{"on": "begin", "between": ["drop", "*"]}]"#).replacingOccurrences(
            of: #""rules":"#,
            with:
                #""duration": 2, "timeline": [{"t": 1, "spawn": {"id": "d", "position": [100, 200], "shapes": [{"circle": {"radius": 4}, "mass": 1, "collisionType": "drop"}]}}], "rules":"#
        )
        let scenario = try loadScenario(text)
        #expect(scenario.rules[0].typeNumberA == 4)
    }

    /// The reproducer and the one line it gets, line:column and field path.
    static let refusals: [(rules: String, world: String, message: String)] = [
        (
            #"[{"on": "begin", "between": ["ball", "brick"]}]"#, "",
            #"Scenarios/test.json:10:39: rules[0].between[1]: no shape has collisionType "brick" (collision types in this file: ball, pusher, goal)"#
        ),
        (
            #"[{"on": "begin", "between": ["*", "ball"]}]"#, "",
            #"Scenarios/test.json:10:31: rules[0].between[0]: "*" may only come second: write the collision type first"#
        ),
        (
            #"[{"on": "begin", "between": ["ball"]}]"#, "",
            #"Scenarios/test.json:10:30: rules[0].between: expected two collision type names, or a name and "*" (got 1)"#
        ),
        (
            #"[{"on": "touch", "between": ["ball", "goal"]}]"#, "",
            #"Scenarios/test.json:10:10: rules[0].on: unknown value "touch"; valid: begin, separate"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"remove": "c"}]}]"#, "",
            #"Scenarios/test.json:10:66: rules[0].do[0].remove: unknown value "c" (did you mean "a"?); valid: a, b"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"remove": "a", "count": "n"}]}]"#, "",
            #"Scenarios/test.json:10:55: rules[0].do[0]: an action has exactly one key (remove, impulse, set, count); got "remove", "count""#
        ),
        (
            #"[{"on": "begin", "between": ["pusher", "ball"], "do": [{"set": {"body": "a", "angle": 1}}]}]"#, "",
            #"Scenarios/test.json:10:74: rules[0].do[0].set.body: body "a" has collisionType "pusher", as has "pusher", a kinematic body driven by its path: a set would fight its path"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "*"], "do": [{"set": {"body": "b", "angle": 1}}]}]"#, "",
            #"Scenarios/test.json:10:69: rules[0].do[0].set.body: body "b" is any shape ("*"), and "pusher" is a kinematic body driven by its path: a set would fight its path"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"set": {"body": "a", "type": "dynamic"}}]}]"#, "",
            #"Scenarios/test.json:10:85: rules[0].do[0].set.type: a rule cannot make a body dynamic (Chipmunk would take its mass from shapes that may have none); use "kinematic" or "static""#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"set": {"body": "a"}}]}]"#, "",
            #"Scenarios/test.json:10:63: rules[0].do[0].set: a set changes nothing: give at least one of position, angle, velocity, angularVelocity, type"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"set": {"body": "a", "position": [240, 60], "type": "static"}}]}]"#,
            "",
            #"Scenarios/test.json:10:89: rules[0].do[0].set.position: a set that makes a body static cannot also move it: Chipmunk keeps a body made static where its shapes were last updated, so it would collide at its old pose; move it in an earlier step, then make it static"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"count": ""}]}]"#, "",
            #"Scenarios/test.json:10:65: rules[0].do[0].count: must not be empty"#
        ),
        (
            #"[{"on": "begin", "between": ["ball", "goal"], "do": [{"set": {"body": "a", "type": "static"}}]}]"#,
            #", "sleepTimeThreshold": 0.5"#,
            #"Scenarios/test.json:10:85: rules[0].do[0].set.type: a rule cannot change a body's type when bodies may sleep (world.sleepTimeThreshold is set): Chipmunk 7.0.3 can leave the body in a sleeping group and abort"#
        ),
        (
            "[]", #", "cull": {"margin": -1}"#,
            #"Scenarios/test.json:2:51: world.cull.margin: must be ≥ 0 and ≤ 10000000 (got -1)"#
        ),
        (
            "[]", #", "cull": {}"#,
            #"Scenarios/test.json:2:40: world.cull.margin: missing required key "margin""#
        ),
    ]

    @Test(arguments: 0..<refusals.count)
    func aRuleOrCullThatCannotWorkIsRefusedAtItsPlace(_ index: Int) {
        let (rules, world, message) = Self.refusals[index]
        #expect(loadError(Self.text(rules, world: world))?.description == message)
    }

    @Test func moreThanTenThousandRulesOrSixtyFourActionsAreRefused() {
        let rule = #"{"on": "begin", "between": ["ball", "goal"]}"#
        let many = "[" + Array(repeating: rule, count: 10_001).joined(separator: ",") + "]"
        #expect(loadError(Self.text(many))?.description.contains("rules: ") == true)
        #expect(loadError(Self.text(many))?.description.contains("10000") == true)
        let tenThousand = "[" + Array(repeating: rule, count: 10_000).joined(separator: ",") + "]"
        #expect(loadError(Self.text(tenThousand)) == nil)
        let actions = Array(repeating: #"{"count": "n"}"#, count: 65).joined(separator: ",")
        let long = #"[{"on": "begin", "between": ["ball", "goal"], "do": [\#(actions)]}]"#
        #expect(loadError(Self.text(long))?.description.contains("rules[0].do: ") == true)
        let sixtyFour = Array(repeating: #"{"count": "n"}"#, count: 64).joined(separator: ",")
        #expect(loadError(Self.text(#"[{"on": "begin", "between": ["ball", "goal"], "do": [\#(sixtyFour)]}]"#)) == nil)
    }
}
