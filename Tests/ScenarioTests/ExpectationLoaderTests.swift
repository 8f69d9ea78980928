import Testing

@_spi(Tools) @testable import Tiltbox

/// Reading `expect`: what loads, and the one located line for each kind of mistake.
@Suite struct ExpectationLoaderTests {
    /// A scenario with crates `a`, `g0_0`, `g0_1`, a ball of collision type `ball`, and
    /// `expect` on line 5.
    static func text(_ expect: String) -> String {
        """
        { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": 5,
          "crates": [ { "id": "a", "position": [100, 100] } ],
          "grids": [ { "idPrefix": "g", "origin": [200, 20], "columns": 2, "rows": 1, "spacing": [40, 40] } ],
          "bodies": [ { "id": "ball", "position": [300, 200], "shapes": [ { "circle": { "radius": 8 }, "mass": 1, "collisionType": "ball" } ] } ],
          "expect": [ \(expect) ] }
        """
    }

    static func load(_ expect: String) throws(InputError) -> Scenario {
        try ScenarioLoader.parse(text: text(expect), file: "s.json", baseDirectory: nil)
    }

    static func error(_ expect: String) -> InputError? {
        do {
            _ = try load(expect)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyKindLoads() throws {
        let scenario = try Self.load(
            """
            { "name": "stands", "from": 0, "body": "g*", "speedBelow": 5 },
            { "always": true, "body": "*", "inside": "world" },
            { "at": 3, "body": "ball", "inside": [[0, 0], [100, 50]] },
            { "at": 2, "body": "ball", "near": [100, 20], "within": 5 },
            { "at": 4, "body": "a", "angle": [0.3, 0.4] },
            { "between": [0, 3], "contact": ["ball", "a"] },
            { "always": true, "noContact": ["ball", "*"] },
            { "at": 5, "kineticEnergyBelow": 1.0 },
            { "at": 1, "body": "a", "yAbove": 10 }, { "at": 1, "body": "a", "yBelow": 300 },
            { "at": 1, "body": "a", "speedAbove": 0 }
            """)
        let e = scenario.expectations
        try #require(e.count == 11)
        #expect(
            e[0] == Expectation(index: 0, name: "stands", window: .from(0), check: .body(.prefix("g"), .speedBelow(5))))
        #expect(e[1].check == .body(.everyDynamic, .inside(.world)))
        #expect(e[1].window == .always)
        #expect(e[2].check == .body(.id("ball"), .inside(.box(Vec2(0, 0), Vec2(100, 50)))))
        #expect(e[3].check == .body(.id("ball"), .near(Vec2(100, 20), within: 5)))
        #expect(e[5].window == .between(0, 3))
        // "ball" is both a body id and a collision type: the body id comes first.
        #expect(e[5].check == .contact(.body("ball"), .body("a"), expected: true))
        #expect(e[6].check == .contact(.body("ball"), .any, expected: false))
        #expect(e[7].check == .kineticEnergyBelow(1))
    }

    @Test func theWindowsStepsFollowTheTimelineRule() {
        let dt = 1.0 / 120
        #expect(ExpectationWindow.at(3).steps(dt: dt, totalSteps: 600) == 360...360)
        #expect(ExpectationWindow.from(4).steps(dt: dt, totalSteps: 600) == 480...600)
        #expect(ExpectationWindow.between(0.5, 1).steps(dt: dt, totalSteps: 600) == 60...120)
        #expect(ExpectationWindow.always.steps(dt: dt, totalSteps: 600) == 0...600)
    }

    @Test(arguments: [
        (
            #"{ "at": 1, "body": "bal", "yAbove": 0 }"#, "expect[0].body",
            #"no body has the id "bal" (did you mean "ball"?)"#
        ),
        (#"{ "at": 1, "body": "x*", "yAbove": 0 }"#, "expect[0].body", #"no body id starts with "x""#),
        (
            #"{ "at": 6, "body": "a", "yAbove": 0 }"#, "expect[0].at",
            "t = 6 s is after the end of the run (duration 5 s)"
        ),
        (#"{ "at": -1, "body": "a", "yAbove": 0 }"#, "expect[0].at", "must be ≥ 0"),
        (#"{ "between": [3, 1], "body": "a", "yAbove": 0 }"#, "expect[0].between", "ends before it starts"),
        (#"{ "always": false, "body": "a", "yAbove": 0 }"#, "expect[0].always", #""always" can only be true"#),
        (#"{ "at": 1, "from": 2, "body": "a", "yAbove": 0 }"#, "expect[0].from", "one time key per expectation"),
        (#"{ "body": "a", "yAbove": 0 }"#, "expect[0]", #"needs one of "at""#),
        (#"{ "at": 1, "body": "a", "yAbove": 1e999 }"#, "expect[0].yAbove", "too large to represent"),
        (#"{ "at": 1, "body": "a", "yAbove": 0, "yBelow": 9 }"#, "expect[0].yBelow", "one check per expectation"),
        (#"{ "at": 1, "body": "a", "near": [0, 0] }"#, "expect[0].within", #""near" needs "within""#),
        (
            #"{ "at": 1, "body": "a", "speedBelow": 1, "within": 3 }"#, "expect[0].within",
            #""within" means nothing with "speedBelow""#
        ),
        (#"{ "at": 1, "kineticEnergyBelow": 1, "body": "a" }"#, "expect[0].body", "means nothing with"),
        (#"{ "at": 1, "speedBelow": 1 }"#, "expect[0].body", #""speedBelow" needs "body""#),
        (#"{ "at": 1, "body": "a", "speedBelow": -1 }"#, "expect[0].speedBelow", "must be ≥ 0"),
        (#"{ "at": 1, "body": "a", "inside": [[10, 0], [0, 10]] }"#, "expect[0].inside", "lower left"),
        (#"{ "at": 1, "body": "a", "inside": "box" }"#, "expect[0].inside", #"expected "world""#),
        (
            #"{ "at": 1, "contact": ["ball", "goal"] }"#, "expect[0].contact[1]",
            "neither a body id nor a collision type"
        ),
        (#"{ "at": 1, "contact": ["*", "*"] }"#, "expect[0].contact", "names no one"),
        (#"{ "at": 1, "noContact": ["ball"] }"#, "expect[0].noContact", "expected two parties"),
        (#"{ "at": 1, "counter": "goals", "atLeast": 3 }"#, "expect[0].counter", #"no rule counts "goals""#),
        (#"{ "at": 1, "body": "a", "yAbove": 0, "when": 3 }"#, "expect[0].when", #"unknown key "when""#),
    ])
    func aMistakeIsOneLocatedLine(expect: String, path: String, reason: String) throws {
        let error = try #require(Self.error(expect), "loaded: \(expect)")
        #expect(error.path == path, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.line == 5, "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func theCountedNamesComeFromTheRulesCountActions() throws {
        let root = try JSONParser.parse(
            #"{ "rules": [ { "on": "begin", "between": ["a", "b"], "do": [ { "count": "goals" }, { "remove": "a" } ] }, { "do": [ { "count": "hits" } ] } ] }"#
        )
        #expect(ScenarioLoader.countedNames(root) == ["goals", "hits"])
        #expect(ScenarioLoader.countedNames(try JSONParser.parse("{}")).isEmpty)
    }
}
