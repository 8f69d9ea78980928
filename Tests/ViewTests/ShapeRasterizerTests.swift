import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Shapes in the terminal view. A 20×10-cell canvas is 40×40 dots and a 39×39 world
/// maps onto it at scale 1: world (x, y) is dot (x, 39 − y).
@Suite struct ShapeRasterizerTests {
    static func draw(
        _ bodies: [SceneOutline.BodyOutline], joints: [SceneOutline.IndexedJoint] = [],
        poses: [(Double, Double, Double)],
        colour: Bool = true
    ) -> BrailleCanvas {
        var canvas = BrailleCanvas(columns: 20, rows: 10)
        let rasterizer = SceneRasterizer(
            worldSize: Vec2(39, 39), segments: [],
            outline: SceneOutline(bodies: bodies, joints: joints), colour: colour)
        let states: [Double] = poses.flatMap { [$0.0, $0.1, $0.2, 0, 0, 0] }
        states.withUnsafeBufferPointer { rasterizer.draw(into: &canvas, states: $0) }
        return canvas
    }

    /// Whether world point (x, y) is lit.
    static func lit(_ canvas: BrailleCanvas, _ x: Double, _ y: Double) -> Bool {
        canvas.isSet(x: Int(x.rounded()), y: Int((39 - y).rounded()))
    }

    static let ball = SceneOutline.BodyOutline(shapes: [.circle(radius: 10, offset: .zero)])

    @Test func circleLightsItsRimAndARadiusLineButNotItsInside() {
        let canvas = Self.draw([Self.ball], poses: [(20, 20, 0)])
        for (x, y) in [(10.0, 20.0), (30.0, 20.0), (20.0, 30.0), (20.0, 10.0)] {
            #expect(Self.lit(canvas, x, y), "rim point (\(x), \(y))")
        }
        #expect(Self.lit(canvas, 25, 20), "the radius line runs from the centre to the rim along the body's x axis")
        for (x, y) in [(15.0, 20.0), (20.0, 25.0), (20.0, 15.0), (14.0, 14.0)] {
            #expect(!Self.lit(canvas, x, y), "inside point (\(x), \(y)) is dark")
        }
    }

    @Test func circleTurnedAQuarterTurnPointsItsRadiusLineUp() {
        let canvas = Self.draw([Self.ball], poses: [(20, 20, .pi / 2)])
        #expect(Self.lit(canvas, 20, 25) && !Self.lit(canvas, 25, 20))
        #expect(Self.lit(canvas, 30, 20), "the rim is still drawn")
    }

    @Test func polygonLightsItsTurnedVerticesAndEdgesButNotItsInside() {
        let wedge = SceneOutline.BodyOutline(shapes: [
            .polygon(vertices: [Vec2(-8, -6), Vec2(8, -6), Vec2(0, 8)], radius: 0)
        ])
        let upright = Self.draw([wedge], poses: [(20, 20, 0)])
        for (x, y) in [(12.0, 14.0), (28.0, 14.0), (20.0, 28.0), (20.0, 14.0)] {
            #expect(Self.lit(upright, x, y), "(\(x), \(y))")
        }
        #expect(!Self.lit(upright, 20, 19), "the centroid is dark")
        // Turned half a turn, the apex (0, 8) is at (20, 12) and the base at y = 26.
        let turned = Self.draw([wedge], poses: [(20, 20, .pi)])
        #expect(Self.lit(turned, 20, 12) && Self.lit(turned, 20, 26) && !Self.lit(turned, 20, 28))
    }

    @Test func roundedBoxIsItsOutlineGrownByTheRadius() {
        let rounded = SceneOutline.BodyOutline(shapes: [.box(size: Vec2(10, 10), radius: 3)])
        let canvas = Self.draw([rounded], poses: [(20, 20, 0)])
        // Edges pushed out by 3: the top edge at y = 28, the right at x = 28.
        #expect(
            Self.lit(canvas, 20, 28) && Self.lit(canvas, 28, 20) && Self.lit(canvas, 20, 12) && Self.lit(canvas, 12, 20)
        )
        #expect(!Self.lit(canvas, 20, 25) && !Self.lit(canvas, 25, 20), "the unrounded box's edges are not drawn")
        // The corner is an arc about (25, 25): its middle at 25 + 3/√2, not the square corner (28, 28).
        #expect(Self.lit(canvas, 25 + 3 / 2.0.squareRoot(), 25 + 3 / 2.0.squareRoot()) && !Self.lit(canvas, 28, 28))
    }

    @Test func segmentWithARadiusIsACapsule() {
        let rod = SceneOutline.BodyOutline(
            type: .static, shapes: [.segment(from: Vec2(-10, 0), to: Vec2(10, 0), radius: 3)])
        let canvas = Self.draw([rod], poses: [(20, 20, 0)])
        #expect(Self.lit(canvas, 20, 23) && Self.lit(canvas, 20, 17), "both sides")
        #expect(Self.lit(canvas, 33, 20) && Self.lit(canvas, 7, 20), "round ends")
        #expect(!Self.lit(canvas, 20, 20), "not the centre line")
        let thin = Self.draw(
            [SceneOutline.BodyOutline(shapes: [.segment(from: Vec2(-10, 0), to: Vec2(10, 0), radius: 0.2)])],
            poses: [(20, 20, 0)])
        #expect(Self.lit(thin, 20, 20) && !Self.lit(thin, 20, 23), "under a dot of radius: the centre line")
    }

    @Test func kinematicBodiesAreDashedAndGrey() {
        let box = [SceneOutline.BodyOutline(type: .kinematic, shapes: [.box(size: Vec2(30, 10), radius: 0)])]
        let dynamic = [SceneOutline.BodyOutline(shapes: [.box(size: Vec2(30, 10), radius: 0)])]
        func topEdge(_ canvas: BrailleCanvas) -> Int { (5...35).filter { Self.lit(canvas, Double($0), 25) }.count }
        let solid = Self.draw(dynamic, poses: [(20, 20, 0)])
        #expect(topEdge(solid) == 31)
        for colour in [true, false] {
            let dashed = Self.draw(box, poses: [(20, 20, 0)], colour: colour)
            let count = topEdge(dashed)
            #expect(count > 10 && count < 25, "a dashed edge lights some of its 31 dots, not all: \(count)")
            var colours = Set<UInt8>()
            for row in 0..<dashed.rows {
                for column in 0..<dashed.columns { colours.insert(dashed.colour(column: column, row: row)) }
            }
            #expect(colours == (colour ? [0, SceneRasterizer.kinematicColour] : [0]), "\(colours)")
        }
        #expect(Self.draw(dynamic, poses: [(20, 20, 0)]).colour(column: 10, row: 3) == SceneRasterizer.crateColours[0])
    }

    @Test func jointIsADottedLineBetweenItsWorldAnchors() {
        // A pivot from the ball's (0, 0)… turned: anchor A (5, 0) on a body turned a quarter turn is at (20, 25).
        let joint = SceneOutline.IndexedJoint(kind: "pin", a: 0, b: nil, anchorA: Vec2(5, 0), anchorB: Vec2(20, 37))
        let tiny = SceneOutline.BodyOutline(shapes: [.circle(radius: 1, offset: .zero)])
        let canvas = Self.draw([tiny], joints: [joint], poses: [(20, 20, .pi / 2)])
        let column = (25...37).map { Self.lit(canvas, 20, Double($0)) }
        #expect(column.filter { $0 }.count == 7, "every other dot of 13: \(column)")
        #expect(column.first == true && column.last == true)
        #expect(!Self.lit(canvas, 20, 38))
        let angular = SceneOutline.IndexedJoint(kind: "simpleMotor", a: 0, b: nil)
        let none = Self.draw([tiny], joints: [angular], poses: [(20, 20, 0)])
        #expect(!Self.lit(none, 0, 0) && !Self.lit(none, 10, 10), "an angular joint to the world draws nothing")
    }

    @Test func theLiveViewsRasterizerDrawsAScenariosBodiesAndJoints() {
        // A crate, a kinematic ball and a pivot between them at a world point, as the live view builds it.
        let crate = CrateSpec(id: "c", position: Vec2(10, 10), size: Vec2(6, 6))
        let ball = BodySpec(
            id: "b", type: .kinematic, position: Vec2(30, 30),
            shapes: [ShapeSpec(geometry: .circle(radius: 5, offset: .zero))])
        let scenario = Scenario(
            name: "live", world: WorldSettings(size: Vec2(39, 39)), walls: WallSettings(box: false),
            crates: [crate], bodies: [ball],
            joints: [JointSpec(parameters: .pivot(.world(Vec2(10, 30))), a: .body("c"), b: .body("b"))])
        let rasterizer = SceneRasterizer(scenario: scenario)
        var canvas = BrailleCanvas(columns: 20, rows: 10)
        let states: [Double] = [10, 10, 0, 0, 0, 0, 30, 30, 0, 0, 0, 0]
        states.withUnsafeBufferPointer { rasterizer.draw(into: &canvas, states: $0) }
        #expect(Self.lit(canvas, 13, 10) && Self.lit(canvas, 10, 13), "the crate's outline")
        var ring = 0
        for x in 0..<40 {
            for y in 0..<40 {
                let dx = Double(x) - 30, dy = Double(y) - 30
                let d = (dx * dx + dy * dy).squareRoot()
                if d >= 4.5 && d <= 5.5 && Self.lit(canvas, Double(x), Double(y)) { ring += 1 }
            }
        }
        #expect(ring >= 8, "the ball's rim, dashed: \(ring) dots")
        var colours = Set<UInt8>()
        for row in 0..<canvas.rows {
            for column in 0..<canvas.columns { colours.insert(canvas.colour(column: column, row: row)) }
        }
        #expect(colours == [0, SceneRasterizer.crateColours[0], SceneRasterizer.kinematicColour], "\(colours)")
        // The pivot's anchors, made local to each body from their initial poses, both sit at (10, 30).
        #expect(Self.lit(canvas, 10, 30))
        #expect(
            !(14...29).contains { Self.lit(canvas, 10, Double($0)) }
                && !(11...24).contains { Self.lit(canvas, Double($0), 30) },
            "a pivot at rest is a point: no line from either body")
    }
}
