import XCTest

@_spi(Tools) @testable import Tiltbox

/// Counts live Chipmunk objects through `EngineCensus`. This is an XCTest case on purpose:
/// `swift test` runs XCTest cases one at a time and apart from the Swift Testing run,
/// so no other test creates worlds while these count.
final class LifetimeTests: XCTestCase {
    func testDroppingOneThousandWorldsLeavesNoLiveChipmunkObject() {
        let before = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes)
        for i in 0..<1000 {
            let crates = (0..<5).map { CrateSpec(id: "c\($0)", position: Vec2(40 + Double($0) * 50, 100)) }
            let scenario = Scenario(
                name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)),
                segments: [SegmentSpec(from: Vec2(0, 100), to: Vec2(200, 60))], crates: crates)
            let world = World(scenario: scenario)
            XCTAssertEqual(EngineCensus.liveSpaces, before.0 + 1)
            XCTAssertEqual(EngineCensus.liveBodies, before.1 + 5)
            XCTAssertEqual(EngineCensus.liveShapes, before.2 + 5 + 5) // 5 boxes, 4 walls, 1 segment
            for _ in 0..<(i % 7) { world.step(dt: 1.0 / 120) } // dropped mid-run, with contacts alive
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
    }

    func testDroppingOneThousandWorldsWithBodiesLeavesNoLiveChipmunkObject() {
        let before = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes)
        let bodies = [
            BodySpec(
                id: "ball", position: Vec2(100, 200),
                shapes: [
                    ShapeSpec(geometry: .circle(radius: 10, offset: Vec2(2, 0)), mass: .mass(1))
                ]),
            BodySpec(
                id: "compound", position: Vec2(200, 200),
                shapes: [
                    ShapeSpec(geometry: .box(size: Vec2(30, 10), radius: 1), mass: .density(0.01)),
                    ShapeSpec(
                        geometry: .polygon(vertices: [Vec2(0, 0), Vec2(10, 0), Vec2(0, 10)], radius: 0), mass: .mass(1)),
                    ShapeSpec(geometry: .segment(from: Vec2(-10, 0), to: Vec2(10, 5), radius: 2), mass: .mass(0.5)),
                ]),
            BodySpec(
                id: "paddle", type: .kinematic, position: Vec2(300, 100), angularVelocity: 1,
                shapes: [
                    ShapeSpec(geometry: .box(size: Vec2(60, 6), radius: 0))
                ]),
            BodySpec(
                id: "shelf", type: .static, position: Vec2(400, 80),
                shapes: [
                    ShapeSpec(geometry: .segment(from: Vec2(-40, 0), to: Vec2(40, 0), radius: 2))
                ]),
        ]
        for i in 0..<1000 {
            let crates = (0..<3).map { CrateSpec(id: "c\($0)", position: Vec2(40 + Double($0) * 50, 150)) }
            let scenario = Scenario(
                name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)), crates: crates, bodies: bodies)
            let world = World(scenario: scenario)
            XCTAssertEqual(EngineCensus.liveSpaces, before.0 + 1)
            XCTAssertEqual(EngineCensus.liveBodies, before.1 + 3 + 4)
            XCTAssertEqual(EngineCensus.liveShapes, before.2 + 3 + 4 + 6) // 3 boxes, 4 walls, 6 body shapes
            for _ in 0..<(i % 7) { world.step(dt: 1.0 / 120) } // dropped mid-run, with contacts alive
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
    }

    func testACrateHeldOutsideItsWorldStaysReadableAfterTheWorldFreesItsSpace() {
        let before = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes)
        var crate: Body?
        do {
            let world = World(
                scenario: Scenario(
                    name: "w", world: WorldSettings(size: Vec2(100, 100)),
                    crates: [CrateSpec(id: "a", position: Vec2(50, 50))]))
            world.step(dt: 1.0 / 120)
            crate = world.bodies[0]
        }
        // The world freed its space (and its walls) when it went; the crate it no longer holds
        // keeps its own body and shape, readable, until it goes too.
        XCTAssertEqual(EngineCensus.liveSpaces, before.0)
        XCTAssertEqual(EngineCensus.liveBodies, before.1 + 1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2 + 1)
        XCTAssertEqual(crate?.state.position.x, 50)
        XCTAssertEqual(crate?.mass, 1)
        crate = nil
        XCTAssertEqual(EngineCensus.liveBodies, before.1)
        XCTAssertEqual(EngineCensus.liveShapes, before.2)
    }
}
