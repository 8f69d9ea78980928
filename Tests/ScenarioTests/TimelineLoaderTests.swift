import Testing

@_spi(Tools) @testable import Tiltbox

/// The `timeline` of docs/formats.md §8 read from a file: due steps, repetitions and spawned
/// ids, and the walk before the run that refuses an action naming what is not there.
@Suite struct TimelineLoaderTests {
    /// A 120 Hz, 10 s scenario with a crate `c`, a dynamic body `wheel`, a kinematic `pusher`
    /// on a path, a joint `m` between `wheel` and the world, and `timeline` on line 9.
    static func text(_ timeline: String, hz: String = "120") -> String {
        """
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "timestep": {"hz": \(hz)},
         "crates": [{"id": "c", "position": [100, 100]}],
         "bodies": [{"id": "wheel", "position": [200, 100], "shapes": [{"circle": {"radius": 10}, "mass": 1}]},
                    {"id": "pusher", "type": "kinematic", "position": [300, 100],
                     "shapes": [{"box": {"size": [10, 10]}}],
                     "path": {"keyframes": [{"t": 0, "position": [300, 100]}, {"t": 1, "position": [310, 100]}]}}],
         "joints": [{"id": "m", "simpleMotor": {"a": "wheel", "b": "static", "rate": 1}}],
         "timeline":
         \(timeline)
        }
        """
    }

    static let ball =
        #"{"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]}"#

    @Test func everyActionKindLoadsInFileOrderWithJointIDs() throws {
        let scenario = try loadScenario(
            Self.text(
                """
                [{"t": 0.5, "every": 0.25, "count": 3, "spawn": \(Self.ball)},
                 {"t": 2, "impulse": {"body": "c", "impulse": [0, 400]}},
                 {"t": 2.5, "impulse": {"body": "c", "impulse": [10, 0], "at": [250, 40]}},
                 {"t": 3, "set": {"body": "c", "position": [240, 40], "angle": 0, "velocity": [0, 0], "angularVelocity": 0}},
                 {"t": 4, "setJoint": {"joint": "m", "rate": 3, "maxForce": 10}},
                 {"t": 5, "joint": {"id": "p", "pivot": {"a": "ball#0", "b": "static", "anchor": [240, 300]}}},
                 {"t": 6, "removeJoint": "p"},
                 {"t": 7, "remove": ["c", "ball#2"]}]
                """))
        #expect(scenario.joints[0].id == "m")
        let entries = scenario.timeline.entries
        #expect(
            entries.map(\.action.key) == [
                "spawn", "impulse", "impulse", "set", "setJoint", "joint", "removeJoint", "remove",
            ])
        #expect(entries[0].count == 3 && entries[0].every == 0.25)
        #expect((0..<3).map { entries[0].spawnedID($0) } == ["ball#0", "ball#1", "ball#2"])
        #expect(entries[2].action == .impulse(TimelineImpulse(body: "c", impulse: Vec2(10, 0), at: Vec2(250, 40))))
        #expect(entries[7].action == .remove(["c", "ball#2"]))
        guard case .joint(let joint) = entries[5].action, case .spawn(let ball) = entries[0].action else {
            Issue.record("expected a joint and a spawn")
            return
        }
        #expect(joint.id == "p" && joint.a == .body("ball#0") && joint.b == .world)
        // The spawned shape's collision type is numbered like any other (the first name in the file).
        #expect(ball.shapes[0].collision.collisionType == 1)
        guard case .setJoint(let setting) = entries[4].action else { return }
        #expect(setting.values.map(\.parameter) == [.rate, .maxForce])
    }

    @Test func dueStepIsTheCeilingOfTOverDtLessOneBillionth() throws {
        #expect(Timeline.dueStep(time: 0, dt: 1.0 / 120) == 0)
        // 0.1 × 30 is 3.0000000000000004 in doubles: the 1e-9 keeps it at step 3.
        #expect(Timeline.dueStep(time: 0.1, dt: 1.0 / 30) == 3)
        #expect(Timeline.dueStep(time: 0.101, dt: 1.0 / 30) == 4)
        let scenario = try loadScenario(
            Self.text(#"[{"t": 0.1, "every": 0.1, "count": 4, "spawn": \#(Self.ball)}]"#, hz: "30"))
        let steps = scenario.timeline.occurrences(dt: scenario.timestep.dt).map(\.step)
        #expect(steps == [3, 6, 9, 12])
    }

    @Test func repetitionsAreComputedFromTNeverAccumulated() {
        let entry = TimelineEntry(t: 0, every: 0.1, count: 11, action: .removeJoint("x"))
        var accumulated = 0.0
        for _ in 0..<10 { accumulated += 0.1 }
        // Ten additions of 0.1 give 0.9999999999999999; 10 × 0.1 is exactly 1.
        #expect(accumulated != 1)
        #expect(entry.time(10) == 1)
    }

    @Test func occurrencesRunByStepThenFileOrder() throws {
        let scenario = try loadScenario(
            Self.text(
                """
                [{"t": 1, "impulse": {"body": "c", "impulse": [0, 1]}},
                 {"t": 0, "every": 0.5, "count": 3, "impulse": {"body": "wheel", "impulse": [0, 1]}}]
                """))
        let order = scenario.timeline.occurrences(dt: scenario.timestep.dt).map { [$0.entry, $0.repetition, $0.step] }
        #expect(order == [[1, 0, 0], [1, 1, 60], [0, 0, 120], [1, 2, 120]])
    }

    @Test func aCrateOnlyScenarioHasAnEmptyTimeline() throws {
        #expect(try loadScenario(scenarioText(#""crates": [{"id": "c", "position": [10, 10]}]"#)).timeline.isEmpty)
    }

    /// The reproducer and the one line it gets, line:column and field path.
    static let refusals: [(timeline: String, message: String)] = [
        (
            #"[{"t": 1, "remove": "c"}, {"t": 2, "impulse": {"body": "c", "impulse": [0, 1]}}]"#,
            #"Scenarios/test.json:9:57: timeline[1].impulse.body: no body "c" is present at step 240 (t = 2): removed at step 120 (t = 1) by timeline[0]"#
        ),
        (
            #"[{"t": 1, "remove": "ball#0"}, {"t": 2, "every": 1, "count": 2, "spawn": \#(ball)}]"#,
            #"Scenarios/test.json:9:22: timeline[0].remove: no body "ball#0" is present at step 120 (t = 1): it is spawned later"#
        ),
        (
            #"[{"t": 1, "remove": "nobody"}]"#,
            #"Scenarios/test.json:9:22: timeline[0].remove: no body "nobody" is present at step 120 (t = 1)"#
        ),
        (
            #"[{"t": 1, "spawn": {"id": "c", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}}]"#,
            #"Scenarios/test.json:9:28: timeline[0].spawn.id: duplicate id "c": ids are unique over the whole run (crates, bodies and spawned bodies)"#
        ),
        (
            #"[{"t": 1, "set": {"body": "pusher", "angle": 1}}]"#,
            #"Scenarios/test.json:9:28: timeline[0].set.body: "pusher" is a kinematic body driven by its path: a set would fight the path"#
        ),
        (
            #"[{"t": 1, "set": {"body": "c", "position": [300, 200], "type": "static"}}]"#,
            #"Scenarios/test.json:9:45: timeline[0].set.position: a set that makes a body static cannot also move it: Chipmunk keeps a body made static where its shapes were last updated, so it would collide at its old pose; move it in an earlier step, then make it static"#
        ),
        (
            #"[{"t": 1, "set": {"body": "c", "type": "static", "angle": 0.5}}]"#,
            #"Scenarios/test.json:9:60: timeline[0].set.angle: a set that makes a body static cannot also move it: Chipmunk keeps a body made static where its shapes were last updated, so it would collide at its old pose; move it in an earlier step, then make it static"#
        ),
        (
            #"[{"t": -1, "remove": "c"}]"#,
            #"Scenarios/test.json:9:9: timeline[0].t: must be ≥ 0 and ≤ 1000000 (got -1)"#
        ),
        (
            #"[{"t": 11, "remove": "c"}]"#,
            #"Scenarios/test.json:9:9: timeline[0].t: due at step 1320 (t = 11), after the run's last step 1200 (duration 10)"#
        ),
        (
            #"[{"t": 0, "every": 1, "count": 100001, "spawn": \#(ball)}]"#,
            #"Scenarios/test.json:9:50: timeline[0].spawn: the timeline spawns more than 100000 bodies in all (counts included)"#
        ),
        (
            #"[{"t": 0, "count": 2, "remove": "c"}]"#,
            #"Scenarios/test.json:9:21: timeline[0].count: a count above 1 needs "every" (the seconds between repetitions)"#
        ),
        (
            #"[{"t": 0, "remove": "c", "removeJoint": "m"}]"#,
            #"Scenarios/test.json:9:3: timeline[0]: an entry has exactly one action (spawn, remove, impulse, set, joint, removeJoint, setJoint); got "remove", "removeJoint""#
        ),
        (
            #"[{"t": 1, "remove": "wheel"}, {"t": 2, "setJoint": {"joint": "m", "rate": 2}}]"#,
            #"Scenarios/test.json:9:63: timeline[1].setJoint.joint: no joint "m" is present at step 240 (t = 2): removed with body "wheel" at step 120 (t = 1) by timeline[0]"#
        ),
        (
            #"[{"t": 1, "setJoint": {"joint": "m", "stiffness": 2}}]"#,
            #"Scenarios/test.json:9:52: timeline[0].setJoint.stiffness: joint "m" is a simpleMotor joint, which has no "stiffness""#
        ),
        (
            #"[{"t": 1, "joint": {"pivot": {"a": "wheel", "b": "static", "anchor": [0, 0]}}}]"#,
            #"Scenarios/test.json:9:21: timeline[0].joint: a joint added by the timeline needs an "id" (removeJoint and setJoint name it)"#
        ),
        (
            #"[{"t": 1, "joint": {"id": "m", "pivot": {"a": "wheel", "b": "static", "anchor": [0, 0]}}}]"#,
            #"Scenarios/test.json:9:28: timeline[0].joint.id: duplicate joint id "m": joint ids are unique over the run"#
        ),
        (
            #"[{"t": 1, "impulse": {"body": "pusher", "impulse": [0, 1]}}]"#,
            #"Scenarios/test.json:9:32: timeline[0].impulse.body: "pusher" is kinematic at step 120 (t = 1): an impulse moves only a dynamic body"#
        ),
        (
            #"[{"t": 1, "set": {"body": "pusher2", "type": "dynamic"}}]"#,
            #"Scenarios/test.json:9:28: timeline[0].set.body: no body "pusher2" is present at step 120 (t = 1)"#
        ),
        (
            #"[{"t": 1, "remove": "static"}]"#,
            #"Scenarios/test.json:9:22: timeline[0].remove: "static" is the world's static body: it cannot be removed"#
        ),
    ]

    @Test(arguments: 0..<refusals.count)
    func anActionNamingWhatIsNotThereOrCannotWorkIsRefusedAtItsPlace(_ index: Int) {
        let (timeline, message) = Self.refusals[index]
        #expect(loadError(Self.text(timeline))?.description == message)
    }

    @Test func aSetJointStiffnessIsHeldToTheSpringStepBoundOfJoints() throws {
        // The crate (mass 1, 32 × 32) on a spring to the world at 120 Hz: k = 1 + 0 (anchors at the centre).
        let spring =
            #"{"t": 0, "joint": {"id": "s", "dampedSpring": {"a": "c", "b": "static", "anchorA": [0, 0], "anchorB": [100, 150], "restLength": 10, "stiffness": 10, "damping": 1}}}"#
        #expect(
            loadError(Self.text("[\(spring), {\"t\": 1, \"setJoint\": {\"joint\": \"s\", \"stiffness\": 57600}}]"))
                == nil)
        let error = loadError(
            Self.text("[\(spring), {\"t\": 1, \"setJoint\": {\"joint\": \"s\", \"stiffness\": 57601}}]"))
        #expect(error?.path == "timeline[1].setJoint.stiffness")
        #expect(
            error?.reason.hasPrefix("57601 is stiffer than one step can integrate") == true,
            "\(String(describing: error))")
    }

    @Test func aBodySpawnedAfterAnotherIsRemovedMayTakeANewID() throws {
        // A body spawned, removed, and another spawned under a new id: accepted.
        let scenario = try loadScenario(
            Self.text(
                #"""
                [{"t": 1, "spawn": \#(Self.ball)}, {"t": 2, "remove": "ball"},
                 {"t": 3, "spawn": {"id": "ball2", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}}]
                """#))
        #expect(scenario.timeline.entries.count == 3)
    }
}
