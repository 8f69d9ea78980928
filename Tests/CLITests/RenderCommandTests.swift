import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A two-crate trace in a 100×50 box, written by hand: the numbers below are the ones
/// the drawings must show. The first id needs escaping in XML and in a script.
private enum HandTrace {
    static let ids = ["a<&>\"b", "c"]
    static let text = """
        {"format":"tiltbox-trace/1","scenario":"hand","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a<&>\\"b","c"],"world":{"size":[100,50]},"segments":[{"from":[0,0],"to":[100,0],"radius":1}],"sizes":[[10,4],[6,6]],"masses":[2,1]}
        {"step":0,"t":0,"g":[0,-10],"s":[[20,30,0,0,0,0],[70,10,0,1,0,0]]}
        {"step":1,"t":0.5,"g":[3,-4],"s":[[25.125,20.5,0.5,2,-3,1],[70,10,1.2345678,0,0,0.5]]}
        {"step":2,"t":1,"g":[-10,0],"s":[[30,2.5,1.5707963267948966,0,0,0],[80.004,3.333,-2.5,0,0,0]]}

        """
    /// (x, y, angle) of each crate in the last record.
    static let last: [(Double, Double, Double)] = [(30, 2.5, 1.5707963267948966), (80.004, 3.333, -2.5)]
}

/// The four corners of a crate, as SceneRasterizer computes them.
private func corners(_ x: Double, _ y: Double, _ angle: Double, _ w: Double, _ h: Double) -> [(Double, Double)] {
    let c = cos(angle), s = sin(angle)
    return [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)].map { (dx, dy) in
        (x + dx * c - dy * s, y + dx * s + dy * c)
    }
}

/// Polygons of an SVG: their `data-id` and `points`.
private final class PolygonCollector: NSObject, XMLParserDelegate {
    var polygons: [(id: String, points: [(Double, Double)])] = []
    var panels = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        if elementName == "g", attributes["class"] == "panel" { panels += 1 }
        guard elementName == "polygon" else { return }
        let points = (attributes["points"] ?? "").split(separator: " ").map { pair -> (Double, Double) in
            let xy = pair.split(separator: ",").map { Double($0) ?? .nan }
            return (xy.first ?? .nan, xy.count > 1 ? xy[1] : .nan)
        }
        polygons.append((attributes["data-id"] ?? "", points))
    }
}

@Suite struct RenderCommandTests {
    @Test func svgFilmStripOfAHandWrittenTraceHasEveryCrateAtItsCorners() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("hand.jsonl", HandTrace.text)
        let svg = directory.path("hand.svg")
        let result = try TiltboxBinary.run(
            ["render", trace, "--svg", svg, "--at", "0.1,1", "--columns", "1"], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("2 panels at t = 0, 1 s"), "stdout: \(result.stdout)")
        let collector = PolygonCollector()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
        parser.delegate = collector
        #expect(parser.parse(), "the SVG does not parse as XML: \(String(describing: parser.parserError))")
        #expect(collector.panels == 2)
        try #require(collector.polygons.count == 2 * 2, "one polygon per crate per panel")
        let sizes = [(10.0, 4.0), (6.0, 6.0)]
        for (body, (x, y, angle)) in HandTrace.last.enumerated() {
            let polygon = collector.polygons[2 + body]
            #expect(polygon.id == HandTrace.ids[body])
            let expected = corners(x, y, angle, sizes[body].0, sizes[body].1)
            for (p, e) in zip(polygon.points, expected) {
                #expect(abs(p.0 - e.0) <= 0.005 + 1e-9 && abs(p.1 - e.1) <= 0.005 + 1e-9, "crate \(body): \(p) vs \(e)")
            }
        }
    }

    @Test func renderRefusesBadRequestsWithExitTwo() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("hand.jsonl", HandTrace.text)
        let outside = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("o.svg"), "--at", "5"], in: directory)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("--at: 5 is outside the trace's times, 0 to 1 s"), "stderr: \(outside.stderr)")
        let nothing = try TiltboxBinary.run(["render", trace], in: directory)
        #expect(
            nothing.status == 2 && nothing.stderr.contains("give --svg FILE, --html FILE or both"),
            "stderr: \(nothing.stderr)")
        let notANumber = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("o.svg"), "--at", "1,x"], in: directory)
        #expect(
            notANumber.status == 2 && notANumber.stderr.contains("\"x\" is not a time"), "stderr: \(notANumber.stderr)")
        let missing = try TiltboxBinary.run(
            ["render", directory.path("none.jsonl"), "--html", directory.path("o.html")], in: directory)
        #expect(missing.status == 2 && missing.stderr.contains("none.jsonl"), "stderr: \(missing.stderr)")
        let stdoutTrace = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--trace", "-", "--html", directory.path("o.html")],
            in: directory)
        #expect(stdoutTrace.status == 2, "stderr: \(stdoutTrace.stderr)")
    }

    @Test func aTraceWithoutWorldSizeIsDrawnInItsBoundingBoxWithANote() throws {
        let directory = try TemporaryDirectory()
        let old = HandTrace.text.replacingOccurrences(of: #","world":{"size":[100,50]}"#, with: "")
        let trace = try directory.write("old.jsonl", old)
        let result = try TiltboxBinary.run(["render", trace, "--svg", directory.path("old.svg")], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("the trace has no world size"), "stderr: \(result.stderr)")
    }

    @Test func runHTMLWithoutTraceRendersAndDeletesItsTemporaryTrace() throws {
        let directory = try TemporaryDirectory()
        let temporary = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let html = directory.path("fall.html")
        let result = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--html", html, "--duration", "0.5"],
            in: directory, environment: ["TMPDIR": temporary])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("html: \(html): all 61 records, 1 body"), "stdout: \(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: html))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty,
            "the temporary trace was left behind")
    }
}

/// The HTML player opened in headless Chromium.
@Suite struct HTMLPlayerBrowserTests {
    @Test func htmlPlayerDrawsTheLastRecordAfterSeekingToTheEndWithoutScriptErrors() throws {
        let directory = try TemporaryDirectory()
        let trace = try directory.write("hand.jsonl", HandTrace.text)
        let html = directory.path("hand.html")
        let result = try TiltboxBinary.run(["render", trace, "--html", html], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        var url = URL(fileURLWithPath: html)
        url = URL(string: url.absoluteString + "#test")!
        // Headless Chromium draws animation frames in real time, while --virtual-time-budget
        // runs the page's timers as fast as it can: on a loaded machine the page may report
        // before the first frame. So the page is loaded again until one load has drawn a frame
        // (the event this waits for), with a generous deadline; a player that never animates
        // still fails.
        var report = try PlayerReport.from(dom: try HeadlessChromium.dumpDOM(url: url, in: directory))
        var loads = 1
        let deadline = Date().addingTimeInterval(Patience.generous)
        while report.ticks == 0 && Date() < deadline {
            report = try PlayerReport.from(dom: try HeadlessChromium.dumpDOM(url: url, in: directory))
            loads += 1
        }
        #expect(report.errors.isEmpty, "script errors: \(report.errors)")
        #expect(report.frameCount == 3 && report.frameIndex == 2 && report.time == 1)
        #expect(report.ticks >= 1, "playback never drew a frame through requestAnimationFrame in \(loads) page loads")
        try #require(report.crates.count == 2)
        for (crate, (id, (x, y, angle))) in zip(report.crates, zip(HandTrace.ids, HandTrace.last)) {
            #expect(crate.id == id)
            #expect(
                abs(crate.x - x) <= 0.005 + 1e-9 && abs(crate.y - y) <= 0.005 + 1e-9,
                "\(id): (\(crate.x), \(crate.y)) vs (\(x), \(y))")
            #expect(
                abs(remainder(crate.angle - angle, 2 * .pi)) <= 0.00005 + 1e-9,
                "\(id): angle \(crate.angle) vs \(angle)")
        }
        #expect(report.hoverCentre == "c", "hit-testing the centre of the last crate")
        // The page's own count of drawn pixels: two crates and the floor at 9 px per unit.
        #expect(report.nonBackground > 1000, "\(report.nonBackground) of \(report.canvasPixels) canvas pixels drawn")

        // A real screenshot: pixels inside the canvas that are not its white background.
        let png = directory.path("hand.png")
        try HeadlessChromium.screenshot(url: url, to: png, in: directory)
        let r = report.canvas, scale = report.devicePixelRatio
        let count = try PNGPixels.count(
            png: png, left: Int((r.left * scale).rounded(.up)), top: Int((r.top * scale).rounded(.up)),
            width: Int(r.width * scale), height: Int(r.height * scale))
        #expect(count.width >= 1000 && count.height >= 800, "screenshot \(count.width)×\(count.height)")
        #expect(count.inside > 100_000, "the canvas area is \(count.inside) pixels")
        #expect(count.nonWhite > 1000, "only \(count.nonWhite) drawn pixels inside the canvas in the screenshot")
    }

    @Test func pileOfAHundredCratesPlaysInTheBrowser() throws {
        let directory = try TemporaryDirectory()
        let html = directory.path("pile.html"), trace = directory.path("pile.jsonl")
        let result = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("pile-100.json"), "--duration", "2", "--every", "2",
                "--trace", trace, "--html", html, "--view", "none",
            ], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let url = URL(string: URL(fileURLWithPath: html).absoluteString + "#test")!
        let report = try PlayerReport.from(dom: try HeadlessChromium.dumpDOM(url: url, in: directory))
        #expect(report.errors.isEmpty, "script errors: \(report.errors)")
        #expect(report.frameCount == 121 && report.frameIndex == 120 && report.lastTime == 2)
        // The drawn crates are the trace's last record (to the page's 2 decimals).
        let objects = try JSONLines.objects(file: trace)
        let last = try #require(objects.dropLast().last?["s"] as? [[Any]])
        try #require(report.crates.count == 100 && last.count == 100)
        for (crate, state) in zip(report.crates, last) {
            let x = JSONLines.number(state[0]) ?? .nan, y = JSONLines.number(state[1]) ?? .nan
            #expect(abs(crate.x - x) <= 0.005 + 1e-9 && abs(crate.y - y) <= 0.005 + 1e-9, "\(crate.id)")
        }
        #expect(report.nonBackground > 20_000)
    }
}
