import Foundation
import Testing

/// A hand-written trace with one body of each shape kind and type, and joints, in a
/// 200×100 world (the same scene as the render tests' `ShapeTrace`).
private enum ShapeHandTrace {
    static let text = #"""
        {"format":"tiltbox-trace/1","scenario":"shapes","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":1,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["ball","wedge","plank","rod","crate"],"world":{"size":[200,100]},"segments":[{"from":[0,0],"to":[200,0],"radius":1}],"types":["dynamic","dynamic","kinematic","static","dynamic"],"shapes":[[{"circle":{"radius":10,"offset":[5,0]}}],[{"polygon":{"vertices":[[-20,-10],[20,-10],[0,10]],"radius":0}}],[{"box":{"size":[40,6],"radius":2}}],[{"segment":{"from":[-30,0],"to":[30,0],"radius":3}}],[{"box":{"size":[10,10],"radius":0}}]],"joints":[{"kind":"pivot","a":"ball","b":"static","anchorA":[0,0],"anchorB":[50,95]},{"kind":"pin","a":"wedge","b":"crate","anchorA":[0,5],"anchorB":[0,0]},{"kind":"groove","a":"plank","b":"ball","anchorA":[-15,0],"anchorB":[5,0],"groove":[[-15,0],[15,0]]},{"kind":"rotaryLimit","a":"wedge","b":"static","anchorA":[0,0],"anchorB":[0,0]},{"kind":"gear","a":"ball","b":"crate","anchorA":[0,0],"anchorB":[0,0]}]}
        {"step":0,"t":0,"g":[0,-10],"s":[[50,70,0,0,0,0],[120,30,0,0,0,0],[90,85,0,10,0,0],[160,60,0,0,0,0],[20,20,0,0,0,0]]}
        {"step":1,"t":1,"g":[0,-10],"s":[[50,60,1.5707963267948966,0,0,0],[120,30,0.3,0,0,0],[100,85,0.1,0,0,0],[160,60,0,0,0,0],[20,20,0.2,0,0,0]]}

        """#
    /// (x, y, angle) of each body at t = 1.
    static let last: [(Double, Double, Double)] = [
        (50, 60, .pi / 2), (120, 30, 0.3), (100, 85, 0.1), (160, 60, 0), (20, 20, 0.2),
    ]

    static func world(_ body: Int, _ x: Double, _ y: Double) -> (Double, Double) {
        let (px, py, a) = last[body]
        return (px + x * cos(a) - y * sin(a), py + x * sin(a) + y * cos(a))
    }
}

/// What the player reports about zoom and probed colours when opened with `?probe=...#test`.
private struct ShapeReport: Decodable {
    struct View: Decodable {
        var zoom: Double
        var panX: Double
        var panY: Double
        var scale: Double
    }

    struct Zoom: Decodable {
        var fit: View
        var plus: View
        var reset: View
        var wheelPoint: [Double]
        var worldBefore: [Double]
        var wheel: View
        var worldAfter: [Double]
        var drag: View
        var minus: View
        var end: View
    }

    var errors: [String]
    var frameIndex: Int
    var probes: [[Int]?]
    var probeHits: [String?]
    var zoom: Zoom
    var canvas: PlayerReport.Rect

    static func from(dom: String) throws -> ShapeReport {
        guard
            let open = dom.range(of: #"<pre id="test-output" data-ready="1">"#)
                ?? dom.range(of: #"<pre data-ready="1" id="test-output">"#),
            let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex),
            let json = Data(base64Encoded: String(dom[open.upperBound..<close.lowerBound]))
        else {
            throw HeadlessChromium.Failed(description: "the page wrote no test report: \(dom.suffix(600))")
        }
        return try JSONDecoder().decode(ShapeReport.self, from: json)
    }
}

@Suite struct ShapeRenderingTests {
    @Test func renderDrawsEveryShapeKindAndJointIntoTheFilmStrip() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("shapes.jsonl", ShapeHandTrace.text)
        let svg = directory.path("shapes.svg")
        let result = try TiltboxBinary.run(["render", trace, "--svg", svg, "--at", "1"], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("no crate sizes"), "a trace with shapes needs no sizes: \(result.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        for element in [
            #"<circle class="shape dynamic" data-id="ball""#, #"<line class="radius" data-id="ball""#,
            #"<polygon class="shape dynamic" data-id="wedge""#, #"<path class="shape kinematic" data-id="plank""#,
            #"<line class="capsule static" data-id="rod""#, #"<polygon class="crate" data-id="crate""#,
            #"<line class="joint" data-kind="pin""#, #"<line class="groove" data-kind="groove""#,
        ] {
            #expect(text.contains(element), "missing \(element)")
        }
        #expect(!text.contains(#"data-kind="rotaryLimit""#), "an angular joint to the world is not drawn")
    }

    @Test func htmlPlayerDrawsShapesInTheBrowserAndZoomsAndPans() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("shapes.jsonl", ShapeHandTrace.text)
        let html = directory.path("shapes.html")
        let result = try TiltboxBinary.run(["render", trace, "--html", html], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let pin = (ShapeHandTrace.world(1, 0, 5), ShapeHandTrace.world(4, 0, 0))
        let probes: [(String, (Double, Double))] = [
            ("ball, off its radius line", ShapeHandTrace.world(0, 5, 5)),
            ("plank", ShapeHandTrace.world(2, -18, 1.5)),
            ("rod", ShapeHandTrace.world(3, 15, 0)),
            ("empty world", (190, 10)),
            ("pin joint's middle", ((pin.0.0 + pin.1.0) / 2, (pin.0.1 + pin.1.1) / 2)),
            ("wedge", ShapeHandTrace.world(1, 0, -10.0 / 3)),
            ("crate", ShapeHandTrace.world(4, 2, -2)),
        ]
        let query = probes.map { "\($0.1.0),\($0.1.1)" }.joined(separator: ",")
        let url = try #require(URL(string: URL(fileURLWithPath: html).absoluteString + "?probe=" + query + "#test"))
        let report = try ShapeReport.from(dom: try HeadlessChromium.dumpDOM(url: url, in: directory))
        #expect(report.errors.isEmpty, "script errors: \(report.errors)")
        #expect(report.frameIndex == 1)
        try #require(report.probes.count == probes.count)
        let colours = report.probes.map { $0 ?? [-1, -1, -1] }
        func near(_ c: [Int], _ e: [Int]) -> Bool { c.count == 3 && zip(c, e).allSatisfy { abs($0 - $1) <= 3 } }
        #expect(near(colours[0], [0xe8, 0x60, 0x4c]), "\(probes[0].0): \(colours[0])")
        #expect(near(colours[1], [0xd5, 0xdb, 0xe3]), "\(probes[1].0) (kinematic fill): \(colours[1])")
        #expect(near(colours[2], [0x9a, 0x9a, 0x9a]), "\(probes[2].0) (static grey): \(colours[2])")
        #expect(near(colours[3], [255, 255, 255]), "\(probes[3].0): \(colours[3])")
        #expect(
            colours[4] != [255, 255, 255] && colours[4][2] - colours[4][1] > 50,
            "\(probes[4].0) (purple line): \(colours[4])")
        #expect(near(colours[5], [0x4c, 0xaf, 0x6a]), "\(probes[5].0): \(colours[5])")
        #expect(near(colours[6], [0xa6, 0x6c, 0xc4]), "\(probes[6].0): \(colours[6])")
        #expect(
            report.probeHits == ["ball", "plank", "rod", nil, nil, "wedge", "crate"],
            "hover hit-testing: \(report.probeHits)")

        // Zoom and pan, driven by a key, the wheel and a drag as the browser sends them.
        let z = report.zoom
        #expect(z.fit.zoom == 1 && z.fit.panX == 0 && z.fit.panY == 0)
        #expect(abs(z.fit.scale - 4.5) <= 1e-9, "a 200×100 world fits 900×480 at 4.5 px per unit")
        #expect(abs(z.plus.zoom - 1.25) <= 1e-12 && abs(z.plus.scale - 4.5 * 1.25) <= 1e-9, "+ zooms in by 1.25")
        #expect(z.reset.zoom == 1 && z.reset.panX == 0 && z.reset.panY == 0, "0 goes back to fit")
        #expect(z.wheel.zoom > 1.5, "a wheel turn up zooms in: \(z.wheel.zoom)")
        try #require(z.wheelPoint.count == 2 && z.worldBefore.count == 2 && z.worldAfter.count == 2)
        #expect(
            abs(z.wheelPoint[0] - 225) <= 1 && abs(z.wheelPoint[1] - 112.5) <= 1,
            "the wheel turned at a quarter of the canvas: \(z.wheelPoint)")
        #expect(
            abs(z.worldAfter[0] - z.worldBefore[0]) <= 1e-9 && abs(z.worldAfter[1] - z.worldBefore[1]) <= 1e-9,
            "the world point under the pointer stays put: \(z.worldBefore) → \(z.worldAfter)")
        #expect(
            abs(z.drag.panX - z.wheel.panX - 30) <= 1e-9 && abs(z.drag.panY - z.wheel.panY - 20) <= 1e-9
                && z.drag.zoom == z.wheel.zoom,
            "dragging by (30, 20) pans by (30, 20)")
        #expect(abs(z.minus.zoom - z.drag.zoom / 1.25) <= 1e-9, "− zooms out by 1.25")
        #expect(z.end.zoom == 1 && z.end.panX == 0 && z.end.panY == 0)
    }

    @Test func aTallWorldGetsACanvasWideEnoughToZoomInto() throws {
        let directory = try TemporaryDirectory()
        let html = directory.path("fall.html")
        let result = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("free-fall.json"), "--duration", "0.5", "--html", html,
                "--view", "none",
            ], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let url = try #require(URL(string: URL(fileURLWithPath: html).absoluteString + "#test"))
        let report = try ShapeReport.from(dom: try HeadlessChromium.dumpDOM(url: url, in: directory))
        #expect(report.errors.isEmpty, "script errors: \(report.errors)")
        // 400×4000 fits 480 px high at 0.12 px per unit, 48 px wide: the canvas is at least 360 wide.
        #expect(report.canvas.width == 360 && report.canvas.height == 480, "\(report.canvas)")
        #expect(abs(report.zoom.fit.scale - 0.12) <= 1e-12)
    }
}
