import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `bodies` as the loader reads it, as `World` builds it, and as the trace header
/// describes it (docs/formats.md §3 and §5).
@Suite struct BodyLoaderTests {
    static let text = scenarioText(
        #"""
        "crates": [{"id": "c", "position": [40, 40]}],
        "bodies": [
          {"id": "ball", "position": [100, 200], "shapes": [{"circle": {"radius": 10, "offset": [3, -2]}, "mass": 2}]},
          {"id": "wedge", "position": [300, 100], "angle": 0.25,
           "shapes": [{"polygon": {"vertices": [[0, 0], [40, 0], [0, 30]]}, "density": 0.01},
                      {"segment": {"from": [0, 0], "to": [0, 40], "radius": 2}, "mass": 0.5, "friction": 0.2, "elasticity": 0.9}]},
          {"id": "paddle", "type": "kinematic", "position": [200, 60], "velocity": [12, 0], "angularVelocity": 0.5,
           "shapes": [{"box": {"size": [60, 8], "radius": 1}}]},
          {"id": "floor", "type": "static", "position": [240, 20], "shapes": [{"segment": {"from": [-100, 0], "to": [100, 0]}}]}
        ]
        """#)

    @Test func bodiesLoadWithTheirDefaults() throws {
        let scenario = try loadScenario(Self.text)
        #expect(scenario.bodies.map(\.id) == ["ball", "wedge", "paddle", "floor"])
        #expect(scenario.bodies.map(\.type) == [.dynamic, .dynamic, .kinematic, .static])
        let ball = scenario.bodies[0]
        #expect(ball.angle == 0 && ball.velocity == .zero && ball.angularVelocity == 0 && ball.path == nil)
        #expect(
            ball.shapes == [
                ShapeSpec(
                    geometry: .circle(radius: 10, offset: Vec2(3, -2)), mass: .mass(2),
                    friction: 0.7, elasticity: 0.3)
            ])
        #expect(
            scenario.bodies[1].shapes[0].geometry
                == .polygon(vertices: [Vec2(0, 0), Vec2(40, 0), Vec2(0, 30)], radius: 0))
        #expect(scenario.bodies[1].shapes[0].mass == .density(0.01))
        #expect(scenario.bodies[1].shapes[1].friction == 0.2 && scenario.bodies[1].shapes[1].elasticity == 0.9)
        #expect(scenario.bodies[2].shapes[0].mass == nil)
        #expect(scenario.bodies[3].shapes[0].geometry == .segment(from: Vec2(-100, 0), to: Vec2(100, 0), radius: 0))
    }

    @Test func theLoadersMassAndMomentAreChipmunksToTheBit() throws {
        let scenario = try loadScenario(Self.text)
        let world = World(scenario: scenario)
        for (spec, body) in zip(scenario.bodies, world.bodies.dropFirst(scenario.crates.count))
        where spec.type == .dynamic {
            let predicted = spec.massProperties
            #expect(predicted.mass.bitPattern == body.mass.bitPattern, "\(spec.id) mass")
            #expect(predicted.moment.bitPattern == body.moment.bitPattern, "\(spec.id) moment")
            #expect(predicted.centreOfGravity.bitwiseEquals(body.centreOfGravity), "\(spec.id) centre of gravity")
        }
        #expect(world.bodies[1].centreOfGravity == Vec2(3, -2))
        #expect(world.bodies[3].mass == .infinity && world.bodies[4].mass == .infinity)
    }

    @Test func aBodysRecordedPositionIsItsOriginNotItsCentreOfGravity() throws {
        let scenario = try loadScenario(Self.text)
        let world = World(scenario: scenario)
        var buffer = [Double](repeating: .nan, count: world.bodyCount * BodyStateLayout.count)
        buffer.withUnsafeMutableBufferPointer { world.readStates(into: $0) }
        #expect(world.bodyCount == 5)
        #expect(
            Array(buffer[6..<12]) == [100, 200, 0, 0, 0, 0],
            "the ball's origin, though its centre of gravity is at (103, 198)")
        #expect(Array(buffer[12..<14]) == [300, 100])
        #expect(Array(buffer[18..<24]) == [200, 60, 0, 12, 0, 0.5])
    }

    @Test func aKinematicBodyMovesAtItsVelocityRegardlessOfGravity() throws {
        let scenario = try loadScenario(Self.text)
        let world = World(scenario: scenario)
        let dt = scenario.timestep.dt
        for _ in 0..<120 { world.step(dt: dt) }
        let paddle = world.bodies[3].state
        #expect(abs(paddle.position.x - (200 + 12 * 120 * dt)) < 1e-9)
        #expect(paddle.position.y == 60 && paddle.velocity == Vec2(12, 0))
        #expect(abs(paddle.angle - 0.5 * 120 * dt) < 1e-9)
        #expect(world.bodies[4].state.position == Vec2(240, 20), "a static body stays put")
    }

    @Test func theHeaderDescribesEveryBodyOnlyWhenThereAreBodies() throws {
        let scenario = try loadScenario(Self.text)
        let header = TraceHeader(scenario: scenario, every: 1, duration: 1)
        #expect(header.bodies == ["c", "ball", "wedge", "paddle", "floor"])
        #expect(header.types == [.dynamic, .dynamic, .dynamic, .kinematic, .static])
        #expect(header.shapes?.count == 5)
        #expect(header.shapes?[0] == [.box(size: Vec2(32, 32), radius: 0)])
        #expect(header.shapes?[2].map(\.kind) == ["polygon", "segment"])
        #expect(header.sizes == [Vec2(32, 32), Vec2(20, 20), Vec2(42, 44), Vec2(62, 10), Vec2(200, 0)])
        let world = World(scenario: scenario)
        #expect(header.masses == [world.bodies[0].mass, world.bodies[1].mass, world.bodies[2].mass, 0, 0])
        #expect(header.jsonLine.contains(#""types":["dynamic","dynamic","dynamic","kinematic","static"]"#))

        var crateOnly = scenario
        crateOnly.bodies = []
        let plain = TraceHeader(scenario: crateOnly, every: 1, duration: 1)
        #expect(plain.types == nil && plain.shapes == nil)
        #expect(!plain.jsonLine.contains("\"types\"") && !plain.jsonLine.contains("\"shapes\""))
        #expect(plain.sizes == [Vec2(32, 32)] && plain.masses == [1])
    }
}
