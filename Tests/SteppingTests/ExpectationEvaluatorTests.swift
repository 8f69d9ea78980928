import Testing

@_spi(Tools) @testable import Tiltbox

/// Expectations checked while a run steps: each kind holding and failing on a small scene
/// (with the failing step), globs, counters, contacts read without changing the physics.
@Suite struct ExpectationEvaluatorTests {
    /// A crate `a` resting on the floor, a crate `b` falling from y = 200 onto it (landing about
    /// 0.45 s in), and a ball of collision type `ball` falling from y = 280 at x = 400 onto the
    /// floor (landing about t = 0.74 s, step 89 or so), 3 s at 120 Hz. Without `walls`, the box
    /// has no walls and everything falls out of the world.
    static func scene(
        _ expect: String, duration: Double = 3, rules: Bool = false, walls: Bool = true
    ) throws -> Scenario {
        let text = """
            { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": \(duration),
              "walls": { "box": \(walls) },
              "crates": [ { "id": "a", "position": [100, 17] }, { "id": "b", "position": [100, 200] } ],
              "bodies": [ { "id": "ball", "position": [400, 280],
                            "shapes": [ { "circle": { "radius": 10 }, "mass": 1, "collisionType": "ball" } ] } ],
              "expect": [ \(expect) ] }
            """
        return try ScenarioLoader.parse(text: text, file: "scene.json", baseDirectory: nil)
    }

    /// Runs `scenario` to the end (every `every`-th step recorded) and returns its expectations' results.
    static func results(
        _ scenario: Scenario, every: Int = 1, counters: (() -> [String: Int])? = nil
    ) throws -> [ExpectationResult] {
        let sink = ExpectationSink(scenario: scenario, counters: counters)
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), every: every, sinks: [sink])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        _ = try session.finish()
        return sink.results
    }

    static func one(_ expect: String, every: Int = 1) throws -> ExpectationResult {
        let results = try results(try scene(expect), every: every)
        try #require(results.count == 1)
        return results[0]
    }

    @Test func insideTheWorldHoldsForEveryDynamicBody() throws {
        let result = try Self.one(#"{ "always": true, "body": "*", "inside": "world" }"#)
        #expect(result.holds, "\(String(describing: result.failure))")
    }

    @Test func insideTheWorldFailsAtTheFirstStepABodyHasLeftIt() throws {
        // Without walls everything falls out of the bottom. Chipmunk moves a body by its velocity
        // before adding gravity's: y at step n is y0 − 980·dt²·n(n − 1)/2, so the ball (y0 = 280)
        // is at 1.31 after step 91 and at −4.88 after step 92, the crate a (y0 = 17) at 0.36 after
        // step 22 and at −0.23 after step 23.
        let scenario = try Self.scene(
            #"""
            { "always": true, "body": "ball", "inside": "world" },
            { "always": true, "body": "*", "inside": "world" }
            """#, walls: false)
        let results = try Self.results(scenario)
        try #require(results.count == 2)
        let ball = try #require(results[0].failure)
        #expect(ball.step == 92, "\(ball)")
        #expect(ball.bodyID == "ball")
        #expect(ball.detail.hasPrefix("body 'ball' at (400, -4.8"), "\(ball.detail)")
        #expect(ball.detail.contains(" is outside the world [[0,0],[480,320]] by 4.8"), "\(ball.detail)")
        let any = try #require(results[1].failure)
        #expect(any.step == 23, "\(any)")
        #expect(any.bodyID == "a")
        #expect(any.detail.contains(" is outside the world [[0,0],[480,320]] by 0.2"), "\(any.detail)")
    }

    @Test func insideABoxFailsAtTheFirstStepOutsideWithTheDistance() throws {
        // The ball starts at (400, 280): outside [[0,0],[480,100]] from step 0, by 180.
        let result = try Self.one(#"{ "name": "low", "always": true, "body": "ball", "inside": [[0, 0], [480, 100]] }"#)
        let failure = try #require(result.failure)
        #expect(failure.step == 0)
        #expect(failure.bodyID == "ball")
        #expect(
            result.line(file: "scene.json")
                == "scene.json: expect[0] (\"low\"): at t = 0 s (step 0), body 'ball' at (400, 280) is outside [[0,0],[480,100]] by 180"
        )
    }

    @Test func atChecksExactlyTheStepOfItsTime() throws {
        // At t = 2 s (step 240) the ball rests on the floor, y ≈ 11.
        let holds = try Self.one(#"{ "at": 2, "body": "ball", "yBelow": 12 }"#)
        #expect(holds.holds, "\(String(describing: holds.failure))")
        let fails = try Self.one(#"{ "at": 2, "body": "ball", "yAbove": 12 }"#)
        #expect(fails.failure?.step == 240, "\(String(describing: fails.failure))")
        #expect(fails.failure?.detail.hasPrefix("body 'ball' at (400, ") == true)
    }

    @Test func nearHoldsWithinTheDistanceAndFailsBeyondIt() throws {
        let holds = try Self.one(#"{ "at": 2, "body": "ball", "near": [400, 11], "within": 1 }"#)
        #expect(holds.holds, "\(String(describing: holds.failure))")
        let fails = try Self.one(#"{ "at": 2, "body": "ball", "near": [300, 11], "within": 5 }"#)
        let failure = try #require(fails.failure)
        #expect(failure.step == 240)
        #expect(failure.detail.contains("is 100 from (300, 11), more than 5"), "\(failure.detail)")
    }

    @Test func speedBelowFailsWhileTheBallFallsAndHoldsOnceItRests() throws {
        let falling = try Self.one(#"{ "between": [0, 0.5], "body": "ball", "speedBelow": 100 }"#)
        // v = g·t = 980·n/120 passes 100 after step 12.
        #expect(falling.failure?.step == 13, "\(String(describing: falling.failure))")
        let resting = try Self.one(#"{ "from": 2, "body": "ball", "speedBelow": 1 }"#)
        #expect(resting.holds, "\(String(describing: resting.failure))")
    }

    @Test func speedAboveHoldsWhileFallingAndFailsAtRest() throws {
        let falling = try Self.one(#"{ "between": [0.2, 0.5], "body": "ball", "speedAbove": 100 }"#)
        #expect(falling.holds, "\(String(describing: falling.failure))")
        let resting = try Self.one(#"{ "at": 2.5, "body": "ball", "speedAbove": 1 }"#)
        #expect(resting.failure?.step == 300)
    }

    @Test func angleRangeHoldsForAnUprightCrateAndFailsOutsideIt() throws {
        let holds = try Self.one(#"{ "always": true, "body": "a", "angle": [-0.01, 0.01] }"#)
        #expect(holds.holds, "\(String(describing: holds.failure))")
        let fails = try Self.one(#"{ "at": 1, "body": "a", "angle": [0.3, 0.4] }"#)
        #expect(fails.failure?.step == 120)
        #expect(fails.failure?.detail.contains("outside [0.3, 0.4]") == true)
    }

    @Test func yAboveAndYBelowHoldAndFailAtTheirStep() throws {
        let above = try Self.one(#"{ "always": true, "body": "a", "yAbove": 10 }"#)
        #expect(above.holds, "\(String(describing: above.failure))")
        let below = try Self.one(#"{ "from": 0.1, "body": "ball", "yBelow": 275 }"#)
        // Chipmunk moves a body by its velocity before adding gravity's: y at step n is
        // 280 − 980·dt²·n(n − 1)/2, 275.508 at step 12 (t = 0.1 s, the window's first step), below 275 from step 13.
        #expect(below.failure?.step == 12, "\(String(describing: below.failure))")
        #expect(below.failure?.detail.hasSuffix("is not below y = 275") == true)
    }

    @Test func prefixGlobChecksEveryMatchingBodyAndNamesTheFirstThatFails() throws {
        let holds = try Self.one(#"{ "always": true, "body": "a*", "yBelow": 20 }"#)
        #expect(holds.holds, "\(String(describing: holds.failure))")
        // Crates a and b both start below 250; "*" includes the ball, which starts above.
        let glob = try Self.one(#"{ "at": 0, "body": "*", "yBelow": 250 }"#)
        #expect(glob.failure?.bodyID == "ball")
    }

    @Test func contactHoldsWhenTheBallReachesTheFloorAndFailsAtTheWindowEndOtherwise() throws {
        let holds = try Self.one(#"{ "between": [0, 1], "contact": ["ball", "*"] }"#)
        #expect(holds.holds, "\(String(describing: holds.failure))")
        let early = try Self.one(#"{ "between": [0, 0.5], "contact": ["ball", "*"] }"#)
        #expect(early.failure?.step == 60, "\(String(describing: early.failure))")
        #expect(early.failure?.detail == "no contact between 'ball' and '*' began from t = 0 s (step 0)")
        // The crates touch each other when b lands on a.
        let crates = try Self.one(#"{ "between": [0, 1], "contact": ["a", "b"] }"#)
        #expect(crates.holds, "\(String(describing: crates.failure))")
    }

    @Test func noContactFailsAtTheStepTheContactBegins() throws {
        let result = try Self.one(#"{ "always": true, "noContact": ["ball", "*"] }"#)
        let failure = try #require(result.failure)
        // The ball (radius 10) falls from y = 280 onto the floor (radius 1): it touches after step 90.
        #expect(failure.step == 90, "step \(failure.step)")
        #expect(failure.detail.contains("body 'ball' and a wall or segment"), "\(failure.detail)")
        // By body id ("ball" is the ball's id before it is its collision type): it never touches crate a.
        let ballAndCrate = try Self.one(#"{ "always": true, "noContact": ["ball", "a"] }"#)
        #expect(ballAndCrate.holds, "\(String(describing: ballAndCrate.failure))")
    }

    /// The scene of `scene` where the contact parties are names no body has, only collision types:
    /// the crates are of type `crate`, the ball of type `round`, the box walls of type `wall`.
    /// Without rules a collision type changes nothing, so everything moves as in `scene`.
    static func typeScene(_ expect: String) throws -> Scenario {
        let text = """
            { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": 3,
              "walls": { "collisionType": "wall" },
              "crates": [ { "id": "a", "position": [100, 17], "collisionType": "crate" },
                          { "id": "b", "position": [100, 200], "collisionType": "crate" } ],
              "bodies": [ { "id": "ball", "position": [400, 280],
                            "shapes": [ { "circle": { "radius": 10 }, "mass": 1, "collisionType": "round" } ] } ],
              "expect": [ \(expect) ] }
            """
        return try ScenarioLoader.parse(text: text, file: "types.json", baseDirectory: nil)
    }

    @Test func contactByCollisionTypeHoldsWhenOneBeginsAndFailsAtTheWindowsEndOtherwise() throws {
        let scenario = try Self.typeScene(
            #"""
            { "between": [0, 1], "contact": ["round", "wall"] },
            { "between": [0, 0.5], "contact": ["wall", "round"] },
            { "between": [0, 1], "contact": ["crate", "crate"] },
            { "between": [0, 3], "contact": ["round", "crate"] }
            """#)
        // The parties are read as collision types (no body has these ids).
        if case .contact(.collisionType("round", _), .collisionType("wall", _), true) = scenario.expectations[0].check {
        } else {
            Issue.record("expect[0] is \(scenario.expectations[0].check)")
        }
        let results = try Self.results(scenario)
        try #require(results.count == 4)
        // The ball lands after step 90: within [0, 1], not within [0, 0.5] (which fails at its last step, 60).
        #expect(results[0].holds, "\(String(describing: results[0].failure))")
        let early = try #require(results[1].failure)
        #expect(early.step == 60)
        #expect(early.detail == "no contact between 'wall' and 'round' began from t = 0 s (step 0)")
        // Crate b lands on crate a (both of type crate) about 0.45 s in.
        #expect(results[2].holds, "\(String(describing: results[2].failure))")
        // The ball, at x = 400, never touches a crate at x = 100.
        let never = try #require(results[3].failure)
        #expect(never.step == 360)
        #expect(never.detail == "no contact between 'round' and 'crate' began from t = 0 s (step 0)")
    }

    @Test func noContactByCollisionTypeHoldsForTypesThatNeverTouchAndFailsAtTheBegin() throws {
        let results = try Self.results(
            try Self.typeScene(
                #"""
                { "always": true, "noContact": ["round", "crate"] },
                { "always": true, "noContact": ["round", "wall"] },
                { "between": [0, 0.5], "noContact": ["round", "wall"] }
                """#))
        try #require(results.count == 3)
        #expect(results[0].holds, "\(String(describing: results[0].failure))")
        // The ball touches the floor after step 90, as in `scene`.
        let failure = try #require(results[1].failure)
        #expect(failure.step == 90, "step \(failure.step)")
        #expect(failure.detail == "a contact between 'round' and 'wall' began (body 'ball' and a wall or segment)")
        #expect(results[2].holds, "\(String(describing: results[2].failure))")
    }

    @Test func theFailingStepIsTheSameWhateverEverySays() throws {
        let every1 = try Self.one(#"{ "always": true, "noContact": ["ball", "*"] }"#)
        let every7 = try Self.one(#"{ "always": true, "noContact": ["ball", "*"] }"#, every: 7)
        #expect(every1.failure?.step == every7.failure?.step)
        #expect(every1.failure != nil)
    }

    @Test func kineticEnergyBelowFailsWhileFallingAndHoldsAtRest() throws {
        let falling = try Self.one(#"{ "at": 0.3, "kineticEnergyBelow": 1 }"#)
        #expect(falling.failure?.step == 36)
        #expect(falling.failure?.detail.hasPrefix("kinetic energy is ") == true)
        let resting = try Self.one(#"{ "from": 2.5, "kineticEnergyBelow": 1 }"#)
        #expect(resting.holds, "\(String(describing: resting.failure))")
    }

    @Test func countersAreCheckedAgainstTheTableTheRunHandsOver() throws {
        var scenario = try Self.scene(#"{ "at": 1, "kineticEnergyBelow": 1e9 }"#)
        scenario.expectations = [
            Expectation(index: 0, window: .at(1), check: .counter("goals", CounterBound(atLeast: 3))),
            Expectation(index: 1, window: .from(2), check: .counter("goals", CounterBound(equals: 4))),
            Expectation(index: 2, window: .always, check: .counter("goals", CounterBound(atMost: 1))),
        ]
        let results = try Self.results(scenario, counters: { ["goals": 4] })
        #expect(results[0].holds)
        #expect(results[1].holds)
        #expect(results[2].failure?.step == 0)
        #expect(results[2].failure?.detail == "counter 'goals' is 4, not at most 1")
        let empty = try Self.results(scenario)
        #expect(empty[0].failure?.detail == "counter 'goals' is 0, not at least 3")
    }

    @Test func aWindowTheRunDoesNotReachIsNotReachedNeitherHoldingNorFailing() throws {
        let scenario = try Self.scene(#"{ "at": 2.5, "body": "ball", "yBelow": 100 }"#)
        let sink = ExpectationSink(scenario: scenario)
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: 120, sinks: [sink])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        _ = try session.finish()
        let result = try #require(sink.results.first)
        #expect(result.notReached && !result.holds && result.failure == nil)
    }

    @Test func aFailureOnTheStepsOfAShortenedRunStillFails() throws {
        let scenario = try Self.scene(#"{ "always": true, "body": "ball", "yAbove": 250 }"#)
        let sink = ExpectationSink(scenario: scenario)
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: 120, sinks: [sink])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        _ = try session.finish()
        let result = try #require(sink.results.first)
        // y = 280 − ½·980·t² passes 250 near t = 0.247 s.
        #expect((25...35).contains(result.failure?.step ?? -1), "\(String(describing: result.failure))")
        #expect(!result.notReached)
    }

    @Test func expectationsLeaveTheRunsDigestUnchanged() throws {
        let scenario = try Self.scene(
            #"{ "always": true, "noContact": ["ball", "*"] }, { "always": true, "body": "*", "speedBelow": 1e6 }"#)
        var plain = scenario
        plain.expectations = []
        func digest(_ scenario: Scenario, sinks: [any RecordSink]) throws -> String {
            let session = RunSession(
                scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: sinks)
            var clock = SteadyClock(hz: 60)
            _ = try session.run(clock: &clock)
            return try session.finish().digest
        }
        let checked = try digest(scenario, sinks: [ExpectationSink(scenario: scenario)])
        #expect(checked == (try digest(plain, sinks: [])))
    }

    /// A ball spawned at t = 1 s (step 120) and removed at t = 2 s (step 240), for expectations
    /// on bodies that come and go.
    static func spawnScene(_ expect: String) throws -> Scenario {
        let text = """
            { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": 3,
              "crates": [ { "id": "a", "position": [100, 17] } ],
              "timeline": [
                { "t": 1, "spawn": { "id": "drop", "position": [300, 200],
                                     "shapes": [ { "circle": { "radius": 10 }, "mass": 1 } ] } },
                { "t": 0.5, "every": 0.5, "count": 3,
                  "spawn": { "id": "rain", "position": [200, 250], "shapes": [ { "circle": { "radius": 5 }, "mass": 1 } ] } },
                { "t": 2, "remove": "drop" } ],
              "expect": [ \(expect) ] }
            """
        return try ScenarioLoader.parse(text: text, file: "spawn.json", baseDirectory: nil)
    }

    @Test func aSpawnedBodyIsCheckedWhilePresentAndFailsAsAbsentOutsideItsLife() throws {
        let results = try Self.results(
            try Self.spawnScene(
                #"""
                { "between": [1, 1.9], "body": "drop", "inside": "world" },
                { "always": true, "body": "drop", "inside": "world" },
                { "from": 2.5, "body": "drop", "inside": "world" },
                { "at": 1.5, "body": "rain#2", "inside": "world" },
                { "always": true, "body": "rain*", "inside": [[0, 0], [480, 260]] },
                { "at": 2, "body": "rain#2", "yAbove": 249 }
                """#))
        try #require(results.count == 6)
        #expect(results[0].holds, "\(String(describing: results[0].failure))")
        // Before its spawn (step 0) and after its removal (step 300): not present.
        #expect(results[1].failure?.step == 0)
        #expect(results[1].failure?.detail == "body 'drop' is not present (not yet spawned, or removed)")
        #expect(results[2].failure?.step == 300)
        // rain#2 is spawned at t = 1.5 s (step 180), shown by record 180.
        #expect(results[3].holds, "\(String(describing: results[3].failure))")
        // The glob picks the bodies present at each step (none before 0.5 s), all below y = 260.
        #expect(results[4].holds, "\(String(describing: results[4].failure))")
        // At t = 2 s rain#2 has fallen 0.5 s: below y = 249.
        #expect(results[5].failure?.step == 240)
        #expect(results[5].failure?.bodyID == "rain#2")
    }

    @Test func anExpectationNamingAnIdNoBodyOrSpawnHasIsRefused() throws {
        #expect(throws: InputError.self) {
            _ = try Self.spawnScene(#"{ "always": true, "body": "rain#3", "inside": "world" }"#)
        }
    }

    /// Three balls dropped one after another onto a floor that is a sensor-free segment of type
    /// `floor`; a rule counts each ball's first touch and removes the ball at once.
    static func ruleScene(_ expect: String) throws -> Scenario {
        let text = """
            { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": 3,
              "walls": { "box": false },
              "segments": [ { "from": [0, 10], "to": [480, 10], "collisionType": "floor" } ],
              "timeline": [ { "t": 0, "every": 0.5, "count": 3,
                "spawn": { "id": "ball", "position": [240, 100],
                           "shapes": [ { "circle": { "radius": 10 }, "mass": 1, "collisionType": "ball" } ] } } ],
              "rules": [ { "on": "begin", "between": ["ball", "floor"], "do": [ { "count": "landed" }, { "remove": "a" } ] } ],
              "expect": [ \(expect) ] }
            """
        return try ScenarioLoader.parse(text: text, file: "rules.json", baseDirectory: nil)
    }

    @Test func countersComeFromTheRunsCollisionRules() throws {
        let results = try Self.results(
            try Self.ruleScene(
                #"""
                { "at": 3, "counter": "landed", "equals": 3 },
                { "at": 0.4, "counter": "landed", "equals": 0 },
                { "always": true, "counter": "landed", "atMost": 2 }
                """#))
        try #require(results.count == 3)
        #expect(results[0].holds, "\(String(describing: results[0].failure))")
        #expect(results[1].holds, "\(String(describing: results[1].failure))")
        // The third ball lands some time after its spawn at t = 1 s: the counter reaches 3 then.
        let failure = try #require(results[2].failure)
        #expect(failure.detail == "counter 'landed' is 3, not at most 2")
        #expect(failure.step > 120)
    }

    @Test func aContactIsSeenEvenWhenARuleRemovesTheBodyOnItsBegin() throws {
        let results = try Self.results(
            try Self.ruleScene(
                #"""
                { "between": [0, 1], "contact": ["ball#0", "floor"] },
                { "always": true, "noContact": ["ball#2", "*"] }
                """#))
        try #require(results.count == 2)
        #expect(results[0].holds, "\(String(describing: results[0].failure))")
        let failure = try #require(results[1].failure)
        #expect(
            failure.detail.hasPrefix("a contact between 'ball#2' and '*' began (body 'ball#2' and a wall or segment)"))
    }
}
