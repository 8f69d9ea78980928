import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Bodies of every shape kind, built as `Body` builds them and the same way in pymunk
/// 7.3.1, end in the same states bit for bit after hundreds of steps: circles with an
/// offset, rounded boxes, convex polygons whose centroid is off the body's origin, and
/// segments, each falling into a box with a slanted shelf. `x, y` is each body's origin
/// (`cpBodyGetPosition`, pymunk's `Body.position`), so reading the centre of gravity
/// instead would show here for every body whose centre of gravity is off its origin.
@Suite struct BodyPymunkAgreementTests {
    static let steps = 600
    static let every = 10
    /// Records compared: step 0, every 10th step, the last.
    static let records = steps / every + 1

    static func scene(_ name: String, _ bodies: [BodySpec], crates: [CrateSpec] = []) -> Scenario {
        Scenario(
            name: name, world: WorldSettings(size: Vec2(480, 320)),
            segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(200, 60), radius: 2)],
            crates: crates, bodies: bodies)
    }

    static func check(_ scenario: Scenario, _ label: String) throws {
        let tally = try PymunkAgreementTests.compare(
            scenario, track: ConstantGravity(scenario.world.gravity),
            steps: steps, every: every)
        PymunkAgreementTests.report("\(label), \(steps) steps", tally)
        #expect(tally.compared == records * (scenario.crates.count + scenario.bodies.count) * BodyStateLayout.count)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    @Test func circlesWithAnOffsetMatchPymunkBitForBit() throws {
        let bodies = (0..<8).map { i -> BodySpec in
            let d = Double(i)
            let shape = ShapeSpec(
                geometry: .circle(radius: 8 + d, offset: Vec2(d - 3, 4 - d)),
                mass: i % 2 == 0 ? .mass(1 + d / 4) : .density(0.01),
                friction: 0.5 + d / 20, elasticity: 0.2 + d / 20)
            return BodySpec(
                id: "ball\(i)", position: Vec2(50 + d * 52, 200 + d * 10), angle: d * 0.3,
                velocity: Vec2(20 - 5 * d, 0), angularVelocity: d - 4, shapes: [shape])
        }
        try Self.check(Self.scene("circles", bodies), "circles with offsets")
    }

    @Test func roundedBoxesMatchPymunkBitForBit() throws {
        let bodies = (0..<8).map { i -> BodySpec in
            let d = Double(i)
            let shape = ShapeSpec(
                geometry: .box(size: Vec2(20 + d * 3, 14 + d), radius: 1 + d / 2),
                mass: i % 2 == 0 ? .mass(2) : .density(0.004))
            return BodySpec(
                id: "box\(i)", position: Vec2(40 + d * 55, 220 + (d.truncatingRemainder(dividingBy: 3)) * 25),
                angle: 0.2 * d, shapes: [shape])
        }
        try Self.check(Self.scene("rounded-boxes", bodies), "rounded boxes")
    }

    @Test func convexPolygonsWithAnOffCentreCentroidMatchPymunkBitForBit() throws {
        let outlines: [[Vec2]] = [
            [Vec2(0, 0), Vec2(30, 0), Vec2(0, 20)],
            [Vec2(5, 5), Vec2(35, 8), Vec2(30, 30), Vec2(12, 34), Vec2(2, 20)],
            [Vec2(-10, 0), Vec2(20, -4), Vec2(24, 12)],
            [Vec2(0, 0), Vec2(16, 0), Vec2(24, 10), Vec2(16, 20), Vec2(0, 20), Vec2(-8, 10)],
        ]
        let bodies = (0..<8).map { i -> BodySpec in
            let d = Double(i)
            let shape = ShapeSpec(
                geometry: .polygon(vertices: outlines[i % 4], radius: i < 4 ? 0 : 1.5),
                mass: i % 2 == 0 ? .mass(1.5) : .density(0.003), friction: 0.6)
            return BodySpec(
                id: "poly\(i)", position: Vec2(40 + d * 52, 230 + (d.truncatingRemainder(dividingBy: 2)) * 30),
                angle: -0.3 * d, angularVelocity: 1, shapes: [shape])
        }
        let scenario = Self.scene("polygons", bodies)
        let world = World(scenario: scenario)
        let cog = world.bodies[0].centreOfGravity
        #expect(cog != .zero, "the first polygon's centroid is off its origin: \(cog)")
        #expect(world.bodies[0].state.position == bodies[0].position, "x, y is the origin, not the centre of gravity")
        try Self.check(scenario, "convex polygons, off-centre centroids")
    }

    @Test func segmentsWithAndWithoutRadiusMatchPymunkBitForBit() throws {
        let bodies = (0..<8).map { i -> BodySpec in
            let d = Double(i)
            let shape = ShapeSpec(
                geometry: .segment(from: Vec2(-12 - d, 2), to: Vec2(18, -3 + d), radius: i % 4 == 0 ? 0 : d / 2),
                mass: i % 4 == 0 ? .mass(1) : .density(0.02))
            return BodySpec(id: "seg\(i)", position: Vec2(40 + d * 55, 240), angle: 0.4 * d, shapes: [shape])
        }
        try Self.check(Self.scene("segments", bodies), "segments")
    }

    @Test func compoundKinematicAndStaticBodiesAmongCratesMatchPymunkBitForBit() throws {
        let compound = BodySpec(
            id: "compound", position: Vec2(120, 250), angle: 0.5,
            shapes: [
                ShapeSpec(geometry: .circle(radius: 10, offset: Vec2(20, 0)), mass: .mass(1)),
                ShapeSpec(geometry: .box(size: Vec2(40, 8), radius: 0), mass: .density(0.01)),
                ShapeSpec(geometry: .polygon(vertices: [Vec2(-20, 0), Vec2(-5, -12), Vec2(-5, 12)], radius: 0)),
                ShapeSpec(geometry: .segment(from: Vec2(0, 0), to: Vec2(0, 20), radius: 2), mass: .mass(0.5)),
            ])
        let paddle = BodySpec(
            id: "paddle", type: .kinematic, position: Vec2(300, 120), velocity: Vec2(-10, 0),
            angularVelocity: 0.8, shapes: [ShapeSpec(geometry: .box(size: Vec2(80, 6), radius: 1))])
        let shelf = BodySpec(
            id: "shelf", type: .static, position: Vec2(400, 150), angle: 0.1,
            shapes: [
                ShapeSpec(
                    geometry: .polygon(vertices: [Vec2(-50, -5), Vec2(50, -5), Vec2(50, 5), Vec2(-50, 5)], radius: 0))
            ])
        let crates = (0..<4).map {
            CrateSpec(id: "c\($0)", position: Vec2(260 + Double($0) * 40, 260), size: Vec2(24, 24))
        }
        try Self.check(
            Self.scene("mixed", [compound, paddle, shelf], crates: crates), "compound, kinematic, static and crates")
    }
}
