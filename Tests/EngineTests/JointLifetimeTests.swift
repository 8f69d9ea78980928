import XCTest

@_spi(Tools) @testable import Tiltbox

/// Joints under `EngineCensus`, as XCTest cases (run one at a time, apart from the Swift
/// Testing run, so no other test creates worlds while these count).
final class JointLifetimeTests: XCTestCase {
    /// Four crates and a joint of every kind, some to the world, some between crates.
    static func scenario(_ i: Int) throws -> Scenario {
        let text = """
            {"format": "tiltbox-scenario/1", "name": "w\(i)", "world": {"size": [480, 320]},
             "segments": [{"from": [0, 100], "to": [200, 60]}],
             "crates": [{"id": "c0", "position": [100, 200]}, {"id": "c1", "position": [160, 200]},
                        {"id": "c2", "position": [220, 200], "angle": 0.3}, {"id": "c3", "position": [280, 150]}],
             "joints": [
               {"pin": {"a": "static", "b": "c0", "anchorA": [100, 260], "anchorB": [5, 5]}},
               {"pivot": {"a": "c0", "b": "c1", "anchor": [130, 200], "collideBodies": false}},
               {"slide": {"a": "c1", "b": "c2", "anchorA": [0, 0], "anchorB": [0, 0], "min": 40, "max": 80}},
               {"groove": {"a": "static", "b": "c3", "grooveA": [240, 150], "grooveB": [400, 150], "anchorB": [0, 0]}},
               {"dampedSpring": {"a": "c2", "b": "c3", "anchorA": [0, 0], "anchorB": [0, 0], "restLength": 50,
                                 "stiffness": 20, "damping": 1}},
               {"dampedRotarySpring": {"a": "c0", "b": "c1", "restAngle": 0, "stiffness": 100, "damping": 1}},
               {"rotaryLimit": {"a": "c2", "b": "static", "min": -1, "max": 1}},
               {"ratchet": {"a": "c1", "b": "c2", "phase": 0, "ratchet": 0.5}},
               {"gear": {"a": "c0", "b": "c3", "phase": 0, "ratio": 2, "maxForce": 1000}},
               {"simpleMotor": {"a": "c3", "b": "static", "rate": 1, "maxForce": 500}}
             ]}
            """
        return try ScenarioLoader.parse(text: text, file: "w.json", baseDirectory: nil)
    }

    func testDroppingOneThousandWorldsWithJointsLeavesNoLiveChipmunkObject() throws {
        let before = (
            EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes,
            EngineCensus.liveConstraints
        )
        for i in 0..<1000 {
            let scenario = try Self.scenario(i)
            XCTAssertEqual(scenario.joints.count, 10)
            let world = World(scenario: scenario)
            XCTAssertEqual(EngineCensus.liveSpaces, before.0 + 1)
            XCTAssertEqual(EngineCensus.liveBodies, before.1 + 4)
            XCTAssertEqual(EngineCensus.liveShapes, before.2 + 4 + 5) // 4 boxes, 4 walls, 1 segment
            XCTAssertEqual(EngineCensus.liveConstraints, before.3 + 10)
            for _ in 0..<(i % 11) { world.step(dt: 1.0 / 120) } // dropped mid-run, joints and contacts alive
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
        XCTAssertEqual(EngineCensus.liveConstraints, before.3)
    }

    /// A crate held outside its world stays alive; the space and the joints are freed with the
    /// world, and the crate (which no joint holds any more) with the last reference to it.
    func testJointsAreFreedWithTheirWorldEvenWhileACrateIsHeldOutside() throws {
        let before = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveConstraints)
        var crate: Body?
        do {
            let world = World(scenario: try Self.scenario(0))
            world.step(dt: 1.0 / 120)
            crate = world.bodies[2]
        }
        XCTAssertEqual(EngineCensus.liveConstraints, before.2, "the world's joints went with the world")
        XCTAssertEqual(EngineCensus.liveBodies, before.1 + 1, "only the held crate's body is alive")
        XCTAssertEqual(EngineCensus.liveSpaces, before.0, "the world freed its space")
        XCTAssertNotNil(crate?.state, "the test still holds the crate here")
        crate = nil
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
    }
}
