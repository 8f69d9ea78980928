import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The shape keys of docs/formats.md §8 (filter, sensor, collision type, surface velocity),
/// set as `ChipmunkShape.apply` sets them, give the same states bit for bit as pymunk 7.3.1
/// setting `filter`, `sensor`, `collision_type` and `surface_velocity` on the same shapes;
/// and each key has the effect it is for (so a key silently dropped on both sides fails).
@Suite struct ShapeKeysPymunkAgreementTests {
    static let steps = 600
    static let every = 10
    static let records = steps / every + 1

    static func world(_ name: String, segments: [SegmentSpec] = [], crates: [CrateSpec] = [], bodies: [BodySpec] = [])
        -> Scenario
    {
        Scenario(
            name: name, world: WorldSettings(size: Vec2(480, 320)), segments: segments, crates: crates,
            bodies: bodies)
    }

    /// Compares with pymunk; returns Tiltbox's final states.
    @discardableResult
    static func check(_ scenario: Scenario, _ label: String) throws -> [BodyState] {
        let tally = try PymunkAgreementTests.compare(
            scenario, track: ConstantGravity(scenario.world.gravity), steps: steps, every: every)
        PymunkAgreementTests.report("\(label), \(steps) steps", tally)
        #expect(tally.compared == records * (scenario.crates.count + scenario.bodies.count) * BodyStateLayout.count)
        #expect(tally.identical == tally.compared, "\(tally)")
        return finalStates(scenario)
    }

    static func finalStates(_ scenario: Scenario) -> [BodyState] {
        let world = World(scenario: scenario)
        for _ in 0..<steps { world.step(dt: scenario.timestep.dt) }
        return world.states
    }

    @Test func aFilterGroupAndMaskLetBodiesPassThroughEachOtherAsInPymunk() throws {
        // A shelf in group 7 and categories 2; crate "same" shares the group, crate "masked"
        // has a mask without bit 2; crate "plain" lands on the shelf.
        let shelf = SegmentSpec(
            from: Vec2(20, 160), to: Vec2(460, 160), radius: 2,
            collision: ShapeCollision(filter: ShapeFilter(group: 7, categories: 2)))
        let crates = [
            CrateSpec(id: "same", position: Vec2(100, 250), collision: ShapeCollision(filter: ShapeFilter(group: 7))),
            CrateSpec(id: "masked", position: Vec2(240, 250), collision: ShapeCollision(filter: ShapeFilter(mask: 1))),
            CrateSpec(id: "plain", position: Vec2(380, 250)),
        ]
        let ball = BodySpec(
            id: "ball", position: Vec2(300, 290),
            shapes: [
                ShapeSpec(
                    geometry: .circle(radius: 10, offset: .zero), mass: .mass(1),
                    collision: ShapeCollision(filter: ShapeFilter(group: 1 << 62, categories: 1, mask: 1)))
            ])
        let final = try Self.check(Self.world("filters", segments: [shelf], crates: crates, bodies: [ball]), "filters")
        #expect(final[0].position.y < 100, "same group: through the shelf (\(final[0].position.y))")
        #expect(final[1].position.y < 100, "masked out: through the shelf (\(final[1].position.y))")
        #expect(final[2].position.y > 160, "no filter: on the shelf (\(final[2].position.y))")
        #expect(final[3].position.y < 100, "ball masked out of category 2: through the shelf")
    }

    @Test func aBodyFallsThroughASensorAsInPymunk() throws {
        let sensor = SegmentSpec(
            from: Vec2(20, 160), to: Vec2(460, 160), radius: 4, collision: ShapeCollision(sensor: true))
        let crate = CrateSpec(id: "c", position: Vec2(240, 250), collision: ShapeCollision(sensor: false))
        let ball = BodySpec(
            id: "ball", position: Vec2(100, 250),
            shapes: [ShapeSpec(geometry: .circle(radius: 10, offset: .zero), mass: .mass(1))])
        let final = try Self.check(Self.world("sensor", segments: [sensor], crates: [crate], bodies: [ball]), "sensor")
        #expect(final[0].position.y < 100 && final[1].position.y < 100, "both fell through the sensor")
    }

    @Test func aBeltSegmentsSurfaceVelocityCarriesCratesAsInPymunk() throws {
        let belt = SegmentSpec(
            from: Vec2(20, 100), to: Vec2(300, 100), radius: 2,
            collision: ShapeCollision(surfaceVelocity: Vec2(-60, 0)))
        let crates = (0..<3).map { CrateSpec(id: "c\($0)", position: Vec2(60 + Double($0) * 60, 130)) }
        let polygon = BodySpec(
            id: "wedge", position: Vec2(240, 140),
            shapes: [
                ShapeSpec(
                    geometry: .polygon(vertices: [Vec2(-12, -8), Vec2(12, -8), Vec2(0, 10)], radius: 0),
                    mass: .density(0.01), collision: ShapeCollision(surfaceVelocity: Vec2(5, 0)))
            ])
        let final = try Self.check(
            Self.world("belt", segments: [belt], crates: crates, bodies: [polygon]), "surface velocity")
        // The belt's surface moves at −60 along x: it carries what lies on it towards −x.
        #expect(final[0].position.x < 60 - 30, "the belt carried c0 to the left (x = \(final[0].position.x))")
    }

    @Test func collisionTypesWithoutHandlersChangeNoBitAndAgreeWithPymunk() throws {
        var crates: [CrateSpec] = []
        for i in 0..<6 {
            let d = Double(i)
            let type = ShapeCollision(collisionTypeName: "t\(i % 3)", collisionType: UInt(i % 3 + 1))
            crates.append(
                CrateSpec(id: "c\(i)", position: Vec2(60 + d * 60, 200 + d * 10), angle: d * 0.3, collision: type))
        }
        let typed = Self.world("types", segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(480, 60))], crates: crates)
        var untyped = typed
        for i in untyped.crates.indices { untyped.crates[i].collision = ShapeCollision.none }
        let final = try Self.check(typed, "collision types")
        let plain = Self.finalStates(untyped)
        func bits(_ states: [BodyState]) -> [UInt64] {
            states.flatMap { (state: BodyState) -> [UInt64] in state.fields.map { $0.bitPattern } }
        }
        #expect(bits(final) == bits(plain))
    }
}

/// `timestep.dt` given exactly (docs/formats.md §8): the step Chipmunk is handed is the
/// double the file gives, not `1 / (1 / dt)`, and pymunk stepping by the same double agrees.
@Suite struct ExactStepPymunkAgreementTests {
    @Test func anExactStepOf1Over30Over5MatchesPymunkBitForBit() throws {
        let dt = 1.0 / 30 / 5
        #expect(1 / (1 / dt) != dt, "this step does not survive a round trip through hz")
        var scenario = PymunkAgreementTests.pile(spatialIndex: .bbtree)
        scenario.timestep = TimestepSettings(dt: dt)
        #expect(scenario.timestep.dt.bitPattern == dt.bitPattern)
        let steps = 450
        let tally = try PymunkAgreementTests.compare(
            scenario, track: ConstantGravity(scenario.world.gravity), steps: steps, every: 10)
        PymunkAgreementTests.report("exact dt 1/30/5, \(steps) steps", tally)
        #expect(tally.compared == (steps / 10 + 1) * scenario.crates.count * BodyStateLayout.count)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    @Test func aScenarioGivingDtUsesItExactlyAndCountsStepsByIt() throws {
        let scenario = try ScenarioLoader.parse(
            text: #"""
                {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 3,
                 "timestep": {"dt": 0.006666666666666666}}
                """#,
            file: "dt.json", baseDirectory: nil)
        #expect(scenario.timestep.dt.bitPattern == (1.0 / 30 / 5).bitPattern)
        #expect(scenario.timestep.dt.bitPattern != (1 / 150.0).bitPattern)
        #expect(scenario.totalSteps == 450)
    }
}

/// A dynamic body giving its own `mass`, `moment` and `centerOfGravity` (docs/formats.md
/// §8): built `cpBodyNew(mass, moment)`, its centre of gravity set before its pose, its
/// shapes massless; pymunk's `Body(mass, moment)` with `center_of_gravity` agrees bit for bit.
@Suite struct GivenMassPymunkAgreementTests {
    static func body(_ id: String, x: Double, given: GivenMass, angularVelocity: Double = 1) -> BodySpec {
        BodySpec(
            id: id, position: Vec2(x, 220), angle: 0.3, angularVelocity: angularVelocity,
            shapes: [
                ShapeSpec(geometry: .box(size: Vec2(40, 12), radius: 0)),
                ShapeSpec(geometry: .circle(radius: 6, offset: Vec2(14, 8))),
            ], givenMass: given)
    }

    @Test func givenMassMomentAndCentreOfGravityMatchPymunkBitForBit() throws {
        let bodies = [
            Self.body("plain", x: 60, given: GivenMass(mass: 2, moment: 400)),
            Self.body("offcentre", x: 160, given: GivenMass(mass: 3, moment: 900, centreOfGravity: Vec2(10, 4))),
            Self.body("norotation", x: 260, given: GivenMass(mass: 1.5, moment: .infinity), angularVelocity: 0),
            Self.body(
                "spinning", x: 360, given: GivenMass(mass: 1, moment: .infinity, centreOfGravity: Vec2(-5, 0)),
                angularVelocity: 2),
        ]
        let scenario = Scenario(
            name: "given-mass", world: WorldSettings(size: Vec2(480, 320)),
            segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(480, 60), radius: 2)], bodies: bodies)
        let world = World(scenario: scenario)
        #expect(world.bodies[1].mass == 3 && world.bodies[1].moment == 900)
        #expect(world.bodies[1].centreOfGravity == Vec2(10, 4))
        #expect(world.bodies[1].state.position == Vec2(160, 220), "x, y is the origin")
        #expect(world.bodies[2].moment == .infinity)
        let final = try ShapeKeysPymunkAgreementTests.check(scenario, "given mass, moment, centre of gravity")
        #expect(final[2].angle == 0.3, "an infinite moment never rotates: \(final[2].angle)")
        #expect(final[3].angularVelocity == 2, "nor changes its spin")
    }
}
