import XCTest

@_spi(Tools) @testable import Tiltbox

/// Counts live Chipmunk objects through `EngineCensus` while worlds add and remove bodies and
/// joints between steps (`World+Changes`). XCTest on purpose, as `LifetimeTests`: run apart
/// from the Swift Testing run, so no other test creates worlds while these count.
final class WorldChangeLifetimeTests: XCTestCase {
    static let ball = BodySpec(
        id: "ball", position: Vec2(200, 200),
        shapes: [ShapeSpec(geometry: .circle(radius: 8, offset: .zero), mass: .mass(1))])

    func testOneThousandWorldsThatSpawnAndRemoveBodiesAndJointsLeaveNoLiveChipmunkObject() {
        let before = (
            EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveConstraints
        )
        for i in 0..<1000 {
            let scenario = Scenario(
                name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)),
                crates: [CrateSpec(id: "c", position: Vec2(100, 100))])
            let world = World(scenario: scenario)
            for k in 0..<3 {
                var ball = Self.ball
                ball.id = "ball#\(k)"
                ball.position = Vec2(100 + 60 * Double(k), 250)
                world.addBody(ball.definition)
                world.step(dt: 1.0 / 120)
            }
            world.addJoint(
                JointSpec(parameters: .pivot(.world(Vec2(100, 260))), a: .body("ball#0"), b: .world, id: "p"))
            world.addJoint(
                JointSpec(parameters: .pin(anchorA: .zero, anchorB: .zero), a: .body("ball#0"), b: .body("c"), id: "q"))
            XCTAssertEqual(EngineCensus.liveBodies, before.1 + 4)
            XCTAssertEqual(EngineCensus.liveShapes, before.2 + 4 + 4) // 1 box, 3 circles, 4 walls
            XCTAssertEqual(EngineCensus.liveConstraints, before.3 + 2)
            world.step(dt: 1.0 / 120)
            if i % 2 == 0 {
                world.removeJoint(id: "p")
                XCTAssertEqual(EngineCensus.liveConstraints, before.3 + 1)
            }
            world.removeBody(id: "ball#0") // its remaining joints go first
            XCTAssertEqual(EngineCensus.liveConstraints, before.3)
            XCTAssertEqual(EngineCensus.liveBodies, before.1 + 3)
            XCTAssertEqual(world.bodyIDs, ["c", "ball#1", "ball#2"])
            for _ in 0..<(i % 5) { world.step(dt: 1.0 / 120) } // dropped mid-run, some bodies still present
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
        XCTAssertEqual(EngineCensus.liveConstraints, before.3)
    }

    /// A scenario whose timeline spawns (an emitter), joins, changes and removes bodies and joints.
    static let timelineScenario = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "timestep": {"hz": 60}, "duration": 0.5,
         "crates": [{"id": "c", "position": [100, 100]}],
         "bodies": [{"id": "wheel", "position": [300, 100], "shapes": [{"circle": {"radius": 10}, "mass": 1}]}],
         "joints": [{"id": "m", "simpleMotor": {"a": "wheel", "b": "static", "rate": 1}}],
         "timeline": [
           {"t": 0, "every": 0.05, "count": 6,
            "spawn": {"id": "ball", "position": [240, 280], "shapes": [{"circle": {"radius": 6}, "mass": 1}]}},
           {"t": 0.1, "joint": {"id": "p", "pivot": {"a": "ball#0", "b": "static", "anchor": [240, 290]}}},
           {"t": 0.12, "joint": {"id": "q", "pin": {"a": "ball#1", "b": "c", "anchorA": [0, 0], "anchorB": [0, 0]}}},
           {"t": 0.15, "setJoint": {"joint": "m", "rate": 3}},
           {"t": 0.2, "remove": ["ball#0", "c"]},
           {"t": 0.25, "removeJoint": "m"},
           {"t": 0.3, "remove": "wheel"}
         ]}
        """#

    func testOneThousandRunsOfATimelineLeaveNoLiveChipmunkObject() throws {
        let scenario = try ScenarioLoader.parse(text: Self.timelineScenario, file: "t.json", baseDirectory: nil)
        let before = (
            EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveConstraints
        )
        for i in 0..<1000 {
            // Some runs stop early, with spawned bodies and joints still present.
            let steps = i % 4 == 0 ? 10 + i % 17 : scenario.totalSteps
            let session = RunSession(
                scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps)
            while session.outcome == nil { try session.advance(frameDuration: 1.0 / 30) }
            _ = try session.finish()
            if i == 1 { XCTAssertEqual(session.world.bodyIDs, ["ball#1", "ball#2", "ball#3", "ball#4", "ball#5"]) }
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
        XCTAssertEqual(EngineCensus.liveConstraints, before.3)
    }
}
