import Foundation
import Testing

/// Names and messages holding characters XML 1.0 forbids (U+FFFE, U+FFFF) still give
/// well-formed JUnit XML and SVG (checked with python3's XML parser), and CSV cells a
/// spreadsheet would run as formulas are neutralised with a leading quote.
@Suite struct MarkupSafetyTests {
    static let formulaNames = ["=cmd|' /C calc'!A0", "+SUM(1,2)", "@x", "-x"]

    /// Whether python3's XML parser accepts the file at `path`; its complaint otherwise.
    static func xmlProblem(_ path: String) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : text
    }

    @Test func batchResultsStayWellFormedAndFormulaFree() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("s.json"))
        var jobs = Self.formulaNames.map {
            #"{"name": "\#($0.replacingOccurrences(of: "\"", with: "\\\""))", "run": "s.json", "duration": 0.1}"#
        }
        jobs.append(#"{"name": "non\ufffe\uffffchars", "run": "s.json", "duration": 0.1}"#)
        jobs.append(#"{"name": "missing", "run": "nope\uffff\ufffe.json"}"#)
        let manifest = try directory.write(
            "m.json", #"{"format": "tiltbox-batch/1", "jobs": [\#(jobs.joined(separator: ","))]}"#)
        let result = try TiltboxBinary.run(
            ["batch", manifest, "--junit", directory.path("r.xml"), "--csv", directory.path("r.csv")],
            in: directory)
        #expect(result.status == 2, "\(result.stderr) \(result.stdout)")
        let junit = directory.path("r.xml")
        let junitProblem = try Self.xmlProblem(junit)
        #expect(junitProblem == nil, "JUnit is not well-formed: \(junitProblem ?? "")")
        let junitText = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(!junitText.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF })
        #expect(junitText.contains("non\u{FFFD}\u{FFFD}chars"), "replaced, not dropped: \(junitText)")
        let rows = try String(contentsOfFile: directory.path("r.csv"), encoding: .utf8).split(separator: "\n").map(
            String.init)
        for name in Self.formulaNames {
            let quoted = "'" + name
            let cell =
                quoted.contains(",") || quoted.contains("\"")
                ? "\"" + quoted.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : quoted
            #expect(rows.contains { $0.hasPrefix(cell + ",") }, "\(name) as \(cell) in \(rows)")
        }
        // No cell starts a formula.
        for row in rows {
            #expect(!["=", "+", "-", "@"].contains(row.first.map(String.init) ?? ""), "\(row)")
        }
    }

    @Test func plainNumbersInCSVAreLeftAsNumbers() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: directory.path("s.json"))
        let manifest = try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [{"name": "sweep", "run": "s.json", "duration": 0.1,
              "sweep": {"world.gravity[1]": [-980, -1e3]}}]}
            """)
        let result = try TiltboxBinary.run(["batch", manifest, "--csv", directory.path("r.csv")], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: directory.path("r.csv"), encoding: .utf8)
        #expect(text.contains(",-980,") && text.contains(",-1000,") && !text.contains("'-"), "\(text)")
    }

    @Test func filmStripAndPageOfOddNamesAreWellFormed() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write(
            "s.json",
            """
            {"format": "tiltbox-scenario/1", "name": "odd\\ufffe\\uffff<&>", "world": {"size": [200, 200], "gravity": [0, -980]},
             "duration": 0.2, "walls": {"box": true},
             "crates": [{"id": "c\\uffff\\ufffe", "position": [100, 100], "size": [20, 20]}]}
            """)
        let trace = directory.path("t.jsonl")
        let run = try TiltboxBinary.run(["run", scenario, "--trace", trace, "--view", "none"], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        let render = try TiltboxBinary.run(
            ["render", trace, "--svg", directory.path("f.svg"), "--html", directory.path("p.html")], in: directory)
        try #require(render.status == 0, "\(render.stderr)")
        let svg = directory.path("f.svg")
        let svgProblem = try Self.xmlProblem(svg)
        #expect(svgProblem == nil, "SVG is not well-formed: \(svgProblem ?? "")")
        for file in ["f.svg", "p.html"] {
            let text = try String(contentsOfFile: directory.path(file), encoding: .utf8)
            #expect(
                !text.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF },
                "\(file) holds a noncharacter")
        }
        let page = try String(contentsOfFile: directory.path("p.html"), encoding: .utf8)
        #expect(
            page.contains(#"\ufffe"#) || page.contains(#"\uffff"#), "the page's data keeps the id's value as an escape")
    }
}
