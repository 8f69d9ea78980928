import Testing

@_spi(Tools) @testable import Tiltbox

@Suite struct WorldTests {
    static func box(crates: [CrateSpec], gravity: Vec2 = Vec2(0, -980)) -> Scenario {
        Scenario(name: "box", world: WorldSettings(size: Vec2(480, 320), gravity: gravity), crates: crates)
    }

    @Test func crateStartsWithItsScenarioPoseAndVelocity() {
        let spec = CrateSpec(
            id: "a", position: Vec2(100, 200), size: Vec2(20, 10), angle: 0.25,
            velocity: Vec2(3, -4), angularVelocity: 1.5)
        let world = World(scenario: Self.box(crates: [spec]))
        let s = world.bodies[0].state
        #expect(s.position == Vec2(100, 200))
        #expect(s.angle == 0.25)
        #expect(s.velocity == Vec2(3, -4))
        #expect(s.angularVelocity == 1.5)
        #expect(world.bodies[0].id == "a")
        #expect(world.bodies[0].kind == "crate")
        let boxMoment: Double = 500.0 / 12 // cpMomentForBox(1, 20, 10) = 1 · (20² + 10²) / 12
        #expect(world.bodies[0].moment == boxMoment)
    }

    @Test func readStatesLaysOutSixFieldsPerCrateInOrder() {
        let specs = (0..<3).map {
            CrateSpec(id: "c\($0)", position: Vec2(50 + Double($0) * 60, 100), angle: Double($0))
        }
        let world = World(scenario: Self.box(crates: specs))
        var buffer = [Double](repeating: .nan, count: 18)
        buffer.withUnsafeMutableBufferPointer { world.readStates(into: $0) }
        for i in 0..<3 {
            #expect(Array(buffer[(i * 6)..<(i * 6 + 6)]) == world.bodies[i].state.fields)
        }
        #expect(buffer[6] == 110 && buffer[8] == 1)
    }

    @Test func crateRestsOnTheFloorOfTheBox() {
        let world = World(scenario: Self.box(crates: [CrateSpec(id: "a", position: Vec2(240, 100))]))
        for _ in 0..<600 { world.step(dt: 1.0 / 120) }
        let s = world.bodies[0].state
        // Floor segment of radius 1 at y = 0: the 32-unit crate rests with its centre near y = 17.
        #expect(abs(s.position.y - 17) < 0.5)
        #expect(abs(s.velocity.y) < 1)
    }

    @Test func gravityChangeMovesTheCrateSideways() {
        let world = World(scenario: Self.box(crates: [CrateSpec(id: "a", position: Vec2(240, 100))]))
        world.setGravity(Vec2(980, 0))
        #expect(world.gravity == Vec2(980, 0))
        for _ in 0..<240 { world.step(dt: 1.0 / 120) }
        #expect(world.bodies[0].state.position.x > 440)
    }

    @Test func spatialHashWorldRunsAndDiffersFromNothingButItsBroadPhase() {
        var scenario = Self.box(
            crates: (0..<20).map {
                CrateSpec(id: "c\($0)", position: Vec2(40 + Double($0 % 10) * 40, 60 + Double($0 / 10) * 40))
            })
        scenario.world.spatialIndex = .hash(cellSize: 40, count: 1000)
        let world = World(scenario: scenario)
        for _ in 0..<240 { world.step(dt: 1.0 / 120) }
        #expect(world.states.allSatisfy { $0.position.isFinite && $0.position.y > 0 && $0.position.y < 320 })
    }

    @Test func divergenceIsReportedForNonFiniteAndHugeValues() {
        let world = World(
            scenario: Self.box(crates: [
                CrateSpec(id: "a", position: Vec2(10, 10)), CrateSpec(id: "b", position: Vec2(100, 10)),
            ]))
        var buffer = [Double](repeating: 1, count: 12)
        #expect(buffer.withUnsafeBufferPointer { world.firstDivergence(in: $0) } == nil)
        buffer[10] = 2e100
        let huge = buffer.withUnsafeBufferPointer { world.firstDivergence(in: $0) }
        #expect(huge?.bodyID == "b" && huge?.field == "vy")
        buffer[3] = .nan
        let nan = buffer.withUnsafeBufferPointer { world.firstDivergence(in: $0) }
        #expect(nan?.bodyID == "a" && nan?.field == "vx")
    }
}
