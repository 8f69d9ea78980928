import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The film strip and the HTML player's data for a trace with every shape kind, body
/// type and a few joints (`ShapeTrace`), checked against formulas written out here.
@Suite struct ShapeDrawingTests {
    static let tolerance = 0.005 + 1e-9

    /// The one-panel strip of the last record, its elements and its layout.
    static func lastPanel() throws -> (elements: [SVGElement], layout: FilmStrip.Layout) {
        let scene = try ShapeTrace.scene()
        let strip = FilmStrip(columns: 1)
        let svg = strip.svg(scene: scene, recordIndices: [1])
        return (try SVGCollector.parse(svg), strip.layout(scene: scene, panels: 1))
    }

    /// World (y up) → SVG pixels of the first panel of a 200×100 world.
    static func svgPoint(_ p: Vec2, _ layout: FilmStrip.Layout) -> Vec2 {
        let origin = layout.panelOrigin(0)
        return Vec2(origin.x + layout.scale * p.x, origin.y + layout.scale * (100 - p.y))
    }

    static func number(_ element: SVGElement, _ name: String) -> Double {
        Double(element.attributes[name] ?? "") ?? .nan
    }

    static func close(_ a: Vec2, _ b: Vec2, _ tolerance: Double = ShapeDrawingTests.tolerance) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test func headerShapesTypesAndJointsBecomeTheOutline() throws {
        let outline = try ShapeTrace.scene().outline
        #expect(outline.bodies.map(\.type) == [.dynamic, .dynamic, .kinematic, .static, .dynamic])
        #expect(outline.bodies[0].shapes == [.circle(radius: 10, offset: Vec2(5, 0))])
        #expect(outline.bodies[4].isCrate && !outline.bodies[2].isCrate && !outline.isCratesOnly)
        #expect(outline.joints.map(\.a) == [0, 1, 2, 1, 0])
        #expect(outline.joints.map(\.b) == [nil, 4, 0, nil, 4])
        #expect(
            outline.joints.map(\.isDrawn) == [true, true, true, false, true],
            "an angular joint to the world has no line")
    }

    @Test func withoutAWorldSizeTheBoundingBoxIsPaddedByTheFarthestShape() throws {
        let text = ShapeTrace.text.replacingOccurrences(of: #""world":{"size":[200,100]},"#, with: "")
        let scene = try RenderScene(
            trace: try TraceReader.parse(Array(text.utf8), file: "s.jsonl", verifyDigest: false), file: "s.jsonl")
        #expect(!scene.hasWorldSize)
        // Positions and segment ends span (0, 0)…(200, 85); the rod reaches 30 + 3 from its origin: pad 33 + 1.
        #expect(scene.origin == Vec2(-34, -34) && scene.extent == Vec2(268, 153), "\(scene.origin) \(scene.extent)")
        #expect(scene.notes.count == 1 && !scene.notes[0].contains("sizes"), "\(scene.notes)")
    }

    @Test func circleIsDrawnAtItsOffsetCentreWithARadiusLineAlongTheBodysAxis() throws {
        let (elements, layout) = try Self.lastPanel()
        let circle = try #require(elements.first { $0.name == "circle" && $0.attributes["data-id"] == "ball" })
        #expect(circle.attributes["class"] == "shape dynamic")
        #expect(circle.attributes["fill"] == FilmStrip.crateFills[0])
        let transform = try #require(AffineTransform.composed(circle.ancestorTransforms))
        // Offset (5, 0) turned by π/2 about the origin (50, 60): the centre is (50, 65).
        let centre = ShapeTrace.world(0, 5, 0)
        #expect(Self.close(centre, Vec2(50, 65), 1e-9))
        let drawn = transform.apply(Vec2(Self.number(circle, "cx"), Self.number(circle, "cy")))
        #expect(Self.close(drawn, Self.svgPoint(centre, layout), Self.tolerance * layout.scale), "\(drawn)")
        #expect(abs(Self.number(circle, "r") * layout.scale - 10 * layout.scale) <= 1e-9)
        #expect(
            abs(transform.a - layout.scale) <= 1e-6 && abs(transform.d + layout.scale) <= 1e-6, "world units, y flipped"
        )
        // The radius line ends on the rim along the body's x axis: straight up at angle π/2.
        let line = try #require(elements.first { $0.name == "line" && $0.attributes["class"] == "radius" })
        let end = Vec2(Self.number(line, "x2"), Self.number(line, "y2"))
        #expect(Self.close(end, Vec2(centre.x + 10 * cos(Double.pi / 2), centre.y + 10 * sin(Double.pi / 2))), "\(end)")
        #expect(Self.close(Vec2(Self.number(line, "x1"), Self.number(line, "y1")), centre))
    }

    @Test func polygonPointsAreItsVerticesTurnedByTheBodysAngle() throws {
        let (elements, _) = try Self.lastPanel()
        let wedge = try #require(elements.first { $0.name == "polygon" && $0.attributes["data-id"] == "wedge" })
        #expect(wedge.attributes["class"] == "shape dynamic" && wedge.attributes["fill"] == FilmStrip.crateFills[1])
        let points = polygonPoints(wedge.attributes["points"] ?? "")
        let expected = [(-20.0, -10.0), (20.0, -10.0), (0.0, 10.0)].map { ShapeTrace.world(1, $0.0, $0.1) }
        try #require(points.count == 3)
        for (p, e) in zip(points, expected) { #expect(Self.close(p, e), "\(p) vs \(e)") }
        // The crate among them keeps its old element and corners.
        let crate = try #require(elements.first { $0.name == "polygon" && $0.attributes["data-id"] == "crate" })
        #expect(crate.attributes["class"] == "crate")
        let corners = polygonPoints(crate.attributes["points"] ?? "")
        let expectedCorners = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)].map {
            ShapeTrace.world(4, $0.0, $0.1)
        }
        #expect(corners.count == 4 && zip(corners, expectedCorners).allSatisfy { Self.close($0, $1) })
    }

    @Test func roundedKinematicBoxIsAPathOfItsCornersGrownByTheRadius() throws {
        let (elements, _) = try Self.lastPanel()
        let plank = try #require(elements.first { $0.attributes["data-id"] == "plank" })
        #expect(plank.name == "path" && plank.attributes["class"] == "shape kinematic")
        #expect(plank.attributes["fill"] == FilmStrip.kinematicFill)
        // d = "M s0 A2,2 0 0 1 e0 L s1 A2,2 0 0 1 e1 ... Z": corner k's arc runs from the corner
        // pushed out along the incoming edge's normal to the corner pushed out along the outgoing one.
        let d = try #require(plank.attributes["d"])
        let arcs = d.components(separatedBy: " A2,2 0 0 1 ")
        try #require(arcs.count == 5, "four arcs of radius 2: \(d)")
        func pair(_ text: Substring) -> Vec2 {
            let xy = text.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? Vec2(xy[0], xy[1]) : Vec2(.nan, .nan)
        }
        let corners = [(-20.0, -3.0), (20.0, -3.0), (20.0, 3.0), (-20.0, 3.0)]
        let normals = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)] // outward normal of the edge leaving corner k
        for k in 0..<4 {
            let incoming = normals[(k + 3) % 4], outgoing = normals[k]
            let start = ShapeTrace.world(2, corners[k].0 + 2 * incoming.0, corners[k].1 + 2 * incoming.1)
            let end = ShapeTrace.world(2, corners[k].0 + 2 * outgoing.0, corners[k].1 + 2 * outgoing.1)
            let drawnStart = pair(arcs[k].split(separator: " ").last?.dropFirst() ?? "")
            let drawnEnd = pair(arcs[k + 1].split(separator: " ").first ?? "")
            #expect(Self.close(drawnStart, start), "corner \(k) arc start \(drawnStart) vs \(start)")
            #expect(Self.close(drawnEnd, end), "corner \(k) arc end \(drawnEnd) vs \(end)")
        }
        #expect(d.hasSuffix(" Z"))
    }

    @Test func staticSegmentIsARoundCappedStrokeTwoRadiiWide() throws {
        let (elements, _) = try Self.lastPanel()
        let rod = try #require(elements.first { $0.attributes["data-id"] == "rod" })
        #expect(rod.name == "line" && rod.attributes["class"] == "capsule static")
        #expect(rod.attributes["stroke"] == FilmStrip.staticFill && Self.number(rod, "stroke-width") == 6)
        #expect(Self.close(Vec2(Self.number(rod, "x1"), Self.number(rod, "y1")), ShapeTrace.world(3, -30, 0)))
        #expect(Self.close(Vec2(Self.number(rod, "x2"), Self.number(rod, "y2")), ShapeTrace.world(3, 30, 0)))
    }

    @Test func jointsAreThinLinesBetweenTheirAnchorsInTheWorld() throws {
        let (elements, _) = try Self.lastPanel()
        let joints = elements.filter { $0.name == "line" && $0.attributes["class"] == "joint" }
        #expect(joints.map { $0.attributes["data-kind"] ?? "" } == ["pivot", "pin", "groove", "gear"])
        try #require(joints.count == 4)
        func ends(_ e: SVGElement) -> (Vec2, Vec2) {
            (Vec2(Self.number(e, "x1"), Self.number(e, "y1")), Vec2(Self.number(e, "x2"), Self.number(e, "y2")))
        }
        // pivot: the ball's origin to the world point (50, 95).
        #expect(Self.close(ends(joints[0]).0, ShapeTrace.world(0, 0, 0)) && Self.close(ends(joints[0]).1, Vec2(50, 95)))
        // pin: (0, 5) on the wedge to the crate's origin.
        #expect(
            Self.close(ends(joints[1]).0, ShapeTrace.world(1, 0, 5))
                && Self.close(ends(joints[1]).1, ShapeTrace.world(4, 0, 0)))
        // groove: from the groove's point nearest anchor B (the ball's (5, 0)) to anchor B.
        let b = ShapeTrace.world(0, 5, 0), g0 = ShapeTrace.world(2, -15, 0), g1 = ShapeTrace.world(2, 15, 0)
        let t = max(0, min(1, ((b.x - g0.x) * (g1.x - g0.x) + (b.y - g0.y) * (g1.y - g0.y)) / (30 * 30)))
        let nearest = Vec2(g0.x + t * (g1.x - g0.x), g0.y + t * (g1.y - g0.y))
        #expect(
            Self.close(ends(joints[2]).0, nearest) && Self.close(ends(joints[2]).1, b),
            "\(ends(joints[2])) vs \(nearest), \(b)")
        let groove = try #require(elements.first { $0.attributes["class"] == "groove" })
        #expect(Self.close(ends(groove).0, g0) && Self.close(ends(groove).1, g1))
        // gear: between the two bodies' origins.
        #expect(
            Self.close(ends(joints[3]).0, ShapeTrace.world(0, 0, 0))
                && Self.close(ends(joints[3]).1, ShapeTrace.world(4, 0, 0)))
    }

    @Test func aCratesOnlyTraceDrawsNoShapeElementsOrStyles() throws {
        let scene = try TinyTrace.scene()
        #expect(scene.outline.isCratesOnly)
        let svg = FilmStrip().svg(scene: scene, recordIndices: [0, 2])
        #expect(!svg.contains(".shape{") && !svg.contains("class=\"shape") && !svg.contains("class=\"joint"))
        let html = String(decoding: HTMLPlayer().html(scene: scene), as: UTF8.self)
        #expect(!html.contains("\"shapes\":") && !html.contains("\"joints\":"))
    }

    @Test func htmlPlayerEmbedsShapesTypesAndDrawnJoints() throws {
        let html = String(decoding: HTMLPlayer().html(scene: try ShapeTrace.scene()), as: UTF8.self)
        let open = try #require(html.range(of: #"<script type="application/json" id="trace-data">"#))
        let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
        let data = try #require(
            try JSONSerialization.jsonObject(with: Data(html[open.upperBound..<close.lowerBound].utf8))
                as? [String: Any])
        #expect(data["types"] as? [String] == ["dynamic", "dynamic", "kinematic", "static", "dynamic"])
        let shapes = try #require(data["shapes"] as? [[[Any]]])
        #expect(shapes.map { $0.first?.first as? String } == ["c", "p", "b", "s", "b"])
        #expect(
            (shapes[1][0].dropFirst().compactMap { ($0 as? NSNumber)?.doubleValue }) == [0, -20, -10, 20, -10, 0, 10])
        let joints = try #require(data["joints"] as? [[Any]])
        #expect(joints.map { $0.first as? String } == ["pivot", "pin", "groove", "gear"])
        #expect(joints[0].dropFirst().compactMap { ($0 as? NSNumber)?.doubleValue } == [0, -1, 0, 0, 50, 95])
        #expect(joints[2].count == 11, "a groove carries its two ends")
    }

    @Test func scenarioOutlineGivesAWorldPivotEachBodysLocalAnchor() {
        // cpPivotJointNew: anchor = cpBodyWorldToLocal(body, pivot), from the initial poses.
        let crate = CrateSpec(id: "c", position: Vec2(10, 0), size: Vec2(4, 4), angle: .pi / 2, mass: 1)
        let ball = BodySpec(
            id: "b", position: Vec2(0, 5), angle: 0.7,
            shapes: [ShapeSpec(geometry: .circle(radius: 2, offset: .zero), mass: .mass(1))])
        let scenario = Scenario(
            name: "pivot", world: WorldSettings(size: Vec2(100, 100)), crates: [crate], bodies: [ball],
            joints: [
                JointSpec(parameters: .pivot(.world(Vec2(10, 5))), a: .body("c"), b: .body("b")),
                JointSpec(parameters: .simpleMotor(rate: 1), a: .body("b"), b: .world),
            ])
        let outline = SceneOutline(scenario: scenario)
        #expect(
            outline.bodies.map(\.shapes) == [[.box(size: Vec2(4, 4), radius: 0)], [.circle(radius: 2, offset: .zero)]])
        let pivot = outline.joints[0]
        #expect(pivot.a == 0 && pivot.b == 1 && pivot.kind == "pivot")
        // (10, 5) seen from (10, 0) turned a quarter turn: (5, 0).
        #expect(abs(pivot.anchorA.x - 5) <= 1e-12 && abs(pivot.anchorA.y) <= 1e-12, "\(pivot.anchorA)")
        let back = BodyPose(position: Vec2(0, 5), angle: 0.7).world(pivot.anchorB)
        #expect(abs(back.x - 10) <= 1e-12 && abs(back.y - 5) <= 1e-12, "\(back)")
        #expect(abs(pivot.anchorB.x - 10 * cos(0.7)) <= 1e-12 && abs(pivot.anchorB.y + 10 * sin(0.7)) <= 1e-12)
        #expect(outline.joints[1].anchorA == .zero && outline.joints[1].b == nil && !outline.joints[1].isDrawn)
    }
}
