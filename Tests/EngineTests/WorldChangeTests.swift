import Testing

@_spi(Tools) @testable import Tiltbox

/// What `World+Changes` does to the bodies between steps: impulses, set, spawned bodies in trace order.
@Suite struct WorldChangeTests {
    static func world() -> World {
        World(
            scenario: Scenario(
                name: "changes", world: WorldSettings(size: Vec2(480, 320), gravity: .zero),
                crates: [CrateSpec(id: "c", position: Vec2(100, 100), mass: 2)]))
    }

    @Test func anImpulseAtTheCentreChangesVelocityByImpulseOverMassAndNotSpin() {
        let world = Self.world()
        world.applyImpulse(toBody: "c", impulse: Vec2(4, -2), at: nil)
        let state = world.bodies[0].state
        #expect(state.velocity == Vec2(2, -1))
        #expect(state.angularVelocity == 0)
    }

    @Test func anImpulseOffTheCentreAlsoSpinsTheBody() {
        let world = Self.world()
        world.applyImpulse(toBody: "c", impulse: Vec2(0, 4), at: Vec2(110, 100))
        let state = world.bodies[0].state
        #expect(state.velocity == Vec2(0, 2))
        #expect(state.angularVelocity > 0)
    }

    @Test func setAppliesEachGivenValueAndTheTypeStopsABodyNoLongerDynamic() {
        let world = Self.world()
        world.setBody("c", position: Vec2(50, 60), angle: 0.5, velocity: Vec2(1, 2), angularVelocity: 3)
        let state = world.bodies[0].state
        #expect(state.position == Vec2(50, 60) && state.angle == 0.5)
        #expect(state.velocity == Vec2(1, 2) && state.angularVelocity == 3)
        world.setBody("c", type: .kinematic)
        #expect(world.bodies[0].type == .kinematic)
        // Chipmunk's cpBodySetType stops a body that is no longer dynamic; a kinematic body then stays put.
        world.step(dt: 1.0 / 120)
        #expect(world.bodies[0].state.velocity == .zero)
        #expect(world.bodies[0].state.position == Vec2(50, 60))
    }

    @Test func spawnedBodiesComeAfterThoseAtStartAndLeaveTheListWhenRemoved() {
        let world = Self.world()
        for id in ["a", "b"] {
            world.addBody(
                BodySpec(
                    id: id, position: Vec2(300, 200),
                    shapes: [ShapeSpec(geometry: .circle(radius: 5, offset: .zero), mass: .mass(1))]
                ).definition)
        }
        #expect(world.bodyIDs == ["c", "a", "b"])
        world.removeBody(id: "a")
        #expect(world.bodyIDs == ["c", "b"])
        #expect(world.bodyCount == 2)
    }

    @Test func setJointChangesAMotorsRateThroughItsSetter() {
        let world = Self.world()
        world.addJoint(JointSpec(parameters: .simpleMotor(rate: 1), a: .body("c"), b: .world, id: "m"))
        world.setJoint("m", .rate, to: 3)
        for _ in 0..<10 { world.step(dt: 1.0 / 120) }
        // The motor drives the crate's angular velocity relative to the world's towards the rate.
        #expect(abs(world.bodies[0].state.angularVelocity - 3) < 1e-9)
        #expect(world.jointIDs == ["m"])
        world.removeJoint(id: "m")
        #expect(world.jointIDs.isEmpty)
    }
}
