import Foundation
import Testing

/// `tiltbox diff A B --html FILE` opened in headless Chromium: both runs drawn, the slider
/// starting at the first divergence, the chart of the largest position difference.
@Suite struct DiffPageBrowserTests {
    struct Report: Decodable {
        struct Drawn: Decodable {
            var id: String
            var x: Double
            var y: Double
        }
        var errors: [String]
        var frameIndex: Int
        var frameCount: Int
        var sliderValue: Int
        var step: Int
        var divergence: Int?
        var a: [Drawn]
        var b: [Drawn]
        var chartPoints: Int
        var largest: Double
    }

    /// A trace of free-fall.json, and a copy whose crate is 5 units higher from step 100 on.
    static func traces(in directory: TemporaryDirectory) throws -> (a: String, b: String) {
        let a = directory.path("a.jsonl")
        let run = try TiltboxBinary.run(["run", PackageFiles.scenario("free-fall.json"), "--trace", a], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        var lines: [String] = []
        for line in try JSONLines.lines(file: a) {
            guard let data = line.data(using: .utf8),
                var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let step = object["step"] as? Int, step >= 100, var states = object["s"] as? [[Double]]
            else {
                lines.append(line)
                continue
            }
            states[0][1] += 5
            object["s"] = states
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        let b = try directory.write("b.jsonl", lines.joined(separator: "\n") + "\n")
        return (a, b)
    }

    @Test func diffPageDrawsBothRunsAndStartsAtTheFirstDivergence() throws {
        let directory = try TemporaryDirectory()
        let (a, b) = try Self.traces(in: directory)
        let html = directory.path("diff.html")
        let diff = try TiltboxBinary.run(["diff", a, b, "--html", html], in: directory)
        #expect(diff.status == 1, "the traces differ: \(diff.stdout) \(diff.stderr)")
        #expect(diff.stdout.contains("first divergence at step 100"), "\(diff.stdout)")
        let url = URL(string: URL(fileURLWithPath: html).absoluteString + "#test")!
        let dom = try HeadlessChromium.dumpDOM(url: url, in: directory)
        guard let open = dom.range(of: #"<pre id="test-output" data-ready="1">"#),
            let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex),
            let json = Data(base64Encoded: String(dom[open.upperBound..<close.lowerBound]))
        else {
            Issue.record("the page wrote no report: \(dom.suffix(400))")
            return
        }
        let report = try JSONDecoder().decode(Report.self, from: json)
        #expect(report.errors.isEmpty, "script errors: \(report.errors)")
        #expect(report.frameCount == 241)
        #expect(report.divergence == 100)
        #expect(report.step == 100 && report.frameIndex == 100 && report.sliderValue == 100)
        try #require(report.a.count == 1 && report.b.count == 1, "both runs drawn")
        // Where each trace has the crate at step 100: B 5 units above A.
        let record = try #require(try JSONLines.objects(file: a).first { JSONLines.number($0["step"]) == 100 })
        let state = try #require((record["s"] as? [[Any]])?.first)
        let y = try #require(JSONLines.number(state[1]))
        #expect(abs(report.a[0].y - y) < 0.001, "A drawn at \(report.a[0].y), trace \(y)")
        #expect(abs(report.b[0].y - (y + 5)) < 0.001, "B drawn at \(report.b[0].y), trace \(y + 5)")
        #expect(report.chartPoints == 241)
        #expect(abs(report.largest - 5) < 1e-6, "largest difference \(report.largest)")
    }

    @Test func diffPageRefusesTracesOfDifferentBodies() throws {
        let directory = try TemporaryDirectory()
        let a = directory.path("a.jsonl"), b = directory.path("b.jsonl")
        _ = try TiltboxBinary.run(["run", PackageFiles.scenario("free-fall.json"), "--trace", a], in: directory)
        _ = try TiltboxBinary.run(["run", PackageFiles.scenario("ramp.json"), "--trace", b], in: directory)
        let diff = try TiltboxBinary.run(["diff", a, b, "--html", directory.path("d.html")], in: directory)
        #expect(diff.status == 2, "\(diff.stderr)")
        #expect(diff.stderr.contains("the traces list different bodies"), "\(diff.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("d.html")))
    }
}
