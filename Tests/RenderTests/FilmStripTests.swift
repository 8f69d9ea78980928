import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Coordinates in the SVG have two decimals: within half a hundredth, plus rounding slack.
private let svgTolerance = 0.005 + 1e-9

private func near(_ a: Vec2, _ b: Vec2, _ tolerance: Double) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

@Test func filmStripParsesAsXMLWithOnePolygonPerCratePerPanelAtTheCorners() throws {
    let scene = try TinyTrace.scene()
    let svg = FilmStrip(columns: 2).svg(scene: scene, recordIndices: [0, 1, 2])
    let elements = try SVGCollector.parse(svg)
    let panels = elements.filter { $0.name == "g" && $0.attributes["class"] == "panel" }
    #expect(panels.map { $0.attributes["data-step"] } == ["0", "1", "2"])
    let polygons = elements.filter { $0.name == "polygon" }
    #expect(polygons.count == 3 * 2, "one polygon per crate per panel")
    for (panel, record) in scene.records.enumerated() {
        for body in 0..<2 {
            let polygon = polygons[panel * 2 + body]
            #expect(polygon.attributes["data-id"] == TinyTrace.ids[body], "the id, XML-escaped, parses back")
            #expect(polygon.text == TinyTrace.ids[body], "the <title> holds the id")
            let state = TinyTrace.records[panel].states[body]
            let expected = SceneOutline.corners(
                position: Vec2(state[0], state[1]), size: TinyTrace.sizes[body], angle: state[2])
            let points = polygonPoints(polygon.attributes["points"] ?? "")
            #expect(points.count == 4)
            for (p, e) in zip(points, expected) {
                #expect(near(p, e, svgTolerance), "panel \(panel) crate \(body): \(p) vs \(e)")
            }
            #expect(record.t == TinyTrace.records[panel].t)
        }
    }
}

@Test func filmStripPanelsFlipYAndSitInAGridOfColumns() throws {
    let scene = try TinyTrace.scene()
    let strip = FilmStrip(columns: 2, panelWidth: 200)
    let layout = strip.layout(scene: scene, panels: 3)
    #expect(layout.scale == 2)
    #expect(layout.panelSize == Vec2(200, 100))
    #expect(layout.columns == 2 && layout.rows == 2)
    let elements = try SVGCollector.parse(strip.svg(scene: scene, recordIndices: [0, 1, 2]))
    let polygons = elements.filter { $0.name == "polygon" }
    // World (20, 30) is the first crate's centre at t = 0; in panel 0 (top-left) it is
    // drawn at margin + (2·20, 2·(50 − 30)); in panel 2 (second row) one row lower.
    for (panel, origin) in [(0, layout.panelOrigin(0)), (2, layout.panelOrigin(2))] {
        let polygon = polygons[panel * 2]
        let transform = try #require(AffineTransform.composed(polygon.ancestorTransforms))
        let state = TinyTrace.records[panel].states[0]
        let centre = transform.apply(Vec2(state[0], state[1]))
        let expected = Vec2(origin.x + 2 * state[0], origin.y + 2 * (50 - state[1]))
        #expect(near(centre, expected, 0.02), "panel \(panel): \(centre) vs \(expected)")
    }
    #expect(layout.panelOrigin(2).y > layout.panelOrigin(0).y + layout.panelSize.y)
    #expect(layout.panelOrigin(1).x > layout.panelOrigin(0).x + layout.panelSize.x)
    let svg = elements.first { $0.name == "svg" }
    #expect(svg?.attributes["viewBox"] == "0 0 \(RenderNumberText(layout.size.x)) \(RenderNumberText(layout.size.y))")
}

private func RenderNumberText(_ v: Double) -> String {
    v == v.rounded() ? String(Int(v)) : String(v)
}

@Test func filmStripDrawsSegmentsTimesAndGravity() throws {
    let scene = try TinyTrace.scene()
    let elements = try SVGCollector.parse(FilmStrip().svg(scene: scene, recordIndices: [0, 2]))
    let lines = elements.filter { $0.name == "line" && $0.attributes["class"] == "segment" }
    #expect(lines.count == 2 * 2)
    #expect(lines[1].attributes["x1"] == "0" && lines[1].attributes["y1"] == "20")
    #expect(lines[1].attributes["x2"] == "40" && lines[1].attributes["y2"] == "0")
    #expect(lines[1].attributes["stroke-width"] == "1", "2 × radius 0.5")
    let times = elements.filter { $0.name == "text" && $0.attributes["class"] == "time" }.map(\.text)
    #expect(times == ["t = 0.00 s", "t = 1.00 s"])
    // Gravity (0, -10) points down the page; (-10, 0) to the left.
    let arrows = elements.filter { $0.name == "line" && $0.attributes["marker-end"] != nil }
    #expect(arrows.count == 2)
    func direction(_ e: SVGElement) -> Vec2 {
        Vec2(
            Double(e.attributes["x2"]!)! - Double(e.attributes["x1"]!)!,
            Double(e.attributes["y2"]!)! - Double(e.attributes["y1"]!)!)
    }
    #expect(near(direction(arrows[0]), Vec2(0, 16), 0.02))
    #expect(near(direction(arrows[1]), Vec2(-16, 0), 0.02))
}

@Test func aTraceWithoutWorldSizeIsDrawnInTheBoundingBoxOfItsCrates() throws {
    var trace = try TinyTrace.trace()
    trace.header.worldSize = nil
    trace.header.sizes = nil
    trace.header.masses = nil
    let scene = try RenderScene(trace: trace, file: "old.jsonl")
    #expect(!scene.hasWorldSize)
    #expect(scene.notes.count == 2)
    #expect(scene.notes.contains { $0.contains("no world size") })
    #expect(scene.sizes == [RenderScene.defaultCrateSize, RenderScene.defaultCrateSize])
    // Positions and segment ends span x 0...100 (the floor segment), y 0...30; the pad is 32·√2/2 + 1.
    let pad = Vec2(32, 32).length / 2 + 1
    #expect(abs(scene.origin.x - (0 - pad)) < 1e-9 && abs(scene.origin.y - (0 - pad)) < 1e-9)
    #expect(abs(scene.extent.x - (100 + 2 * pad)) < 1e-9 && abs(scene.extent.y - (30 + 2 * pad)) < 1e-9)
    #expect(scene.energyIsPerUnitMass)
    _ = try SVGCollector.parse(FilmStrip().svg(scene: scene, recordIndices: [0]))
}

@Test func aTraceWithoutPositionFieldsIsRefused() throws {
    var trace = try TinyTrace.trace()
    trace.header.fields = ["x", "y", "theta", "vx", "vy", "w"]
    #expect(throws: InputError.self) { try RenderScene(trace: trace, file: "odd.jsonl") }
    do {
        _ = try RenderScene(trace: trace, file: "odd.jsonl")
    } catch {
        #expect(error.description.hasPrefix("odd.jsonl: fields: the records have no \"x\", \"y\" and \"angle\""))
    }
}

@Test func kineticEnergyUsesMassesAndTheBoxMoment() throws {
    let scene = try TinyTrace.scene()
    // t = 0.5: crate a (m 2, 10×4) moves (2, −3) turning at 1; c (m 1, 6×6) turns at 0.5.
    let ia = 2 * (100.0 + 16) / 12, ic = 1 * (36.0 + 36) / 12
    let expected = 0.5 * 2 * 13 + 0.5 * ia * 1 + 0.5 * ic * 0.25
    #expect(abs((scene.kineticEnergy(of: scene.records[1]) ?? .nan) - expected) < 1e-12)
    #expect(!scene.energyIsPerUnitMass)
}

@Test func numbersInDrawingsHaveAtMostTheirDecimals() {
    let cases: [(Double, Int, String)] = [
        (12.5, 2, "12.5"), (3, 2, "3"), (-0.004, 2, "0"), (-0.006, 2, "-0.01"), (0.1 + 0.2, 2, "0.3"),
        (1.23456, 4, "1.2346"), (100, 0, "100"), (2e12, 2, "2000000000000"),
        (.infinity, 2, "0"), (0.05, 2, "0.05"), (1234567.891, 2, "1234567.89"),
    ]
    for (value, decimals, text) in cases {
        #expect(RenderNumber.text(value, decimals: decimals) == text, "\(value) with \(decimals)")
    }
}
