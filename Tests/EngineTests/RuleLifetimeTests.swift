import XCTest

@_spi(Tools) @testable import Tiltbox

/// Worlds with collision rules free every Chipmunk object, counted through `EngineCensus`. XCTest
/// on purpose, as `LifetimeTests`: run apart from the Swift Testing run, so no other test's world
/// comes or goes between the counts (in the Swift Testing run these counts raced other suites).
final class RuleLifetimeTests: XCTestCase {
    func testAWorldWithRulesFreedWhileItsBodiesTouchFreesEverythingAndRecordsNothing() throws {
        let before = (EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveSpaces)
        do {
            // Freed while the ball touches the floor: the space goes first, and nothing is removed
            // one by one, so Chipmunk makes no separate call (the handlers are detached anyway).
            let (events, _, _) = try CollisionRuleTests.events(
                CollisionRuleTests.floorScene(#"[{"on": "separate", "between": ["ball", "floor"]}]"#), steps: 60)
            XCTAssertEqual(events.count, 0)
        }
        XCTAssertTrue((EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveSpaces) == before)
    }

    func testAThousandWorldsWhoseRulesRemoveTouchingBodiesLeaveNoChipmunkObject() throws {
        let before = (EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveSpaces)
        // One scene's rule removes the ball as it lands; in the other the ball stays on the floor, touching it
        // when its world is freed. Both record the separates.
        let separate = #"{"on": "separate", "between": ["ball", "*"], "do": [{"count": "gone"}]}"#
        let scenes = try [
            #"[{"on": "begin", "between": ["ball", "floor"], "do": [{"remove": "a"}]}, \#(separate)]"#,
            "[\(separate)]",
        ].map {
            try ScenarioLoader.parse(text: CollisionRuleTests.floorScene($0), file: "rules.json", baseDirectory: nil)
        }
        var counts = [0, 0]
        for index in 0..<1000 {
            let scenario = scenes[index % 2]
            let world = World(scenario: scenario)
            var player = RulePlayer(scenario: scenario)
            for _ in 0..<40 {
                world.step(dt: scenario.timestep.dt)
                _ = player.afterStep(world: world)
            }
            counts[index % 2] = world.bodyIDs.count
        }
        XCTAssertEqual(counts, [1, 2])
        XCTAssertTrue((EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveSpaces) == before)
    }
}
