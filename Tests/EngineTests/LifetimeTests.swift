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

    func testACrateHeldOutsideItsWorldKeepsTheSpaceAliveUntilItIsGone() {
        let before = EngineCensus.liveSpaces
        var crate: Crate?
        do {
            let world = World(scenario: Scenario(name: "w", world: WorldSettings(size: Vec2(100, 100)),
                                                 crates: [CrateSpec(id: "a", position: Vec2(50, 50))]))
            crate = world.crates[0]
        }
        XCTAssertEqual(EngineCensus.liveSpaces, before + 1, "the crate keeps its space alive")
        XCTAssertEqual(crate?.state.position, Vec2(50, 50))
        crate = nil
        XCTAssertEqual(EngineCensus.liveSpaces, before)
    }
}
