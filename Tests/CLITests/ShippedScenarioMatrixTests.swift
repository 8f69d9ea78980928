import Foundation
import Testing
import Tiltbox

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every command on every shipped scenario (docs/reliability.md, "The matrix over what ships"):
/// `run` with each output (a trace, `--summary-json`, `--html`, `--pictures`; a `--hashes` trace
/// compressed as `.zst`), `verify`, `diff --html`, `render --svg --html`, `test`, `batch` (a job per
/// scenario), `batch-merge` and `validate`. The scenarios are the `.json` files of `Scenarios/`,
/// listed when the test runs, so one added later is in the matrix without a change here.
///
/// It fails on a crash (a signal, an exit status of 128 or more, a Swift trap or Chipmunk abort
/// message) and on output that does not parse: traces are read back by the library's reader
/// (every line, the digest, the events), JSON files by `JSONSerialization`, SVG and JUnit XML by
/// `XMLParser`, and the JSON data of every HTML page. Scenarios with events (a timeline, rules or
/// culling, what broke the readers before) run their full duration; the others 1 s, as a longer
/// run of them proves nothing more here.
@Suite struct ShippedScenarioMatrixTests {
    /// What went wrong in one scenario's commands, and how many commands ran.
    struct Findings: Sendable {
        var problems: [String] = []
        var commands = 0
    }

    /// Whether the scenario has events after t = 0: a `timeline`, `rules` or `world.cull`.
    static func hasEvents(_ path: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let world = object["world"] as? [String: Any]
        return object["timeline"] != nil || object["rules"] != nil || world?["cull"] != nil
    }

    /// The `--duration` arguments for `path`: none (its full run) when it has events.
    static func duration(_ path: String) throws -> [String] {
        try hasEvents(path) ? [] : ["--duration", "1"]
    }

    /// Runs `tiltbox arguments` and notes a crash or an exit status outside `allowed`.
    static func command(
        _ arguments: [String], allowed: Set<Int32> = [0], in directory: TemporaryDirectory,
        _ findings: inout Findings
    ) throws {
        findings.commands += 1
        let result = try TiltboxBinary.run(arguments, in: directory)
        let shown = "tiltbox " + arguments.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " ")
        if result.status >= 128 || !allowed.contains(result.status) {
            findings.problems.append("\(shown): exit \(result.status): \(result.stderr.prefix(400))")
        }
        for crash in ["Fatal error", "Aborting due to Chipmunk error", "Segmentation fault", "Illegal instruction"]
        where result.stderr.contains(crash) {
            findings.problems.append("\(shown): \(crash) on standard error")
        }
    }

    // MARK: - Checking what was written

    /// A trace read back whole by the library's reader (digest checked for a trace of states).
    static func checkTrace(_ path: String, hashes: Bool = false, _ findings: inout Findings) {
        do {
            let trace = try TraceReader.read(path: path)
            if trace.end?.kind != .complete { findings.problems.append("\(path): no complete end line") }
            if (trace.header.records == .hashes) != hashes {
                findings.problems.append("\(path): records are not \(hashes ? "hashes" : "states")")
            }
        } catch {
            findings.problems.append("\(error)")
        }
    }

    static func checkJSON(_ path: String, _ findings: inout Findings) {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            findings.problems.append("\(path): not JSON: \(error)")
        }
    }

    static func checkXML(_ path: String, _ findings: inout Findings) {
        guard let parser = XMLParser(contentsOf: URL(fileURLWithPath: path)), parser.parse() else {
            findings.problems.append("\(path): not well-formed XML")
            return
        }
    }

    /// An HTML page: whole (`</html>` last), and the JSON in each of its `application/json` scripts parses.
    static func checkPage(_ path: String, _ findings: inout Findings) {
        guard let page = try? String(contentsOfFile: path, encoding: .utf8) else {
            findings.problems.append("\(path): missing or not UTF-8")
            return
        }
        if !page.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</html>") {
            findings.problems.append("\(path): the page is cut off")
        }
        var rest = page[...]
        var blocks = 0
        while let open = rest.range(of: #"<script type="application/json""#),
            let start = rest.range(of: ">", range: open.upperBound..<rest.endIndex),
            let end = rest.range(of: "</script>", range: start.upperBound..<rest.endIndex)
        {
            blocks += 1
            if (try? JSONSerialization.jsonObject(with: Data(rest[start.upperBound..<end.lowerBound].utf8))) == nil {
                findings.problems.append("\(path): the page's data is not JSON")
            }
            rest = rest[end.upperBound...]
        }
        if blocks == 0 { findings.problems.append("\(path): no data in the page") }
    }

    // MARK: - The matrix

    /// `run` (two runs: every output, then a compressed hash trace), `verify`, `diff --html` and
    /// `render` on one scenario, each output checked.
    static func perScenario(_ scenario: String) throws -> Findings {
        var findings = Findings()
        let directory = try TemporaryDirectory()
        let duration = try Self.duration(scenario)
        let trace = directory.path("t.jsonl"), hashes = directory.path("h.jsonl.zst")
        let pictures = directory.path("pictures")
        // An expectation may fail in a shortened run (exit 1): that is not a crash, and it draws a picture.
        try command(
            [
                "run", scenario, "--view", "none", "--trace", trace, "--summary-json", directory.path("summary.json"),
                "--html", directory.path("run.html"), "--pictures", pictures,
            ] + duration,
            allowed: [0, 1], in: directory, &findings)
        checkTrace(trace, &findings)
        checkJSON(directory.path("summary.json"), &findings)
        checkPage(directory.path("run.html"), &findings)
        for picture in (try? FileManager.default.contentsOfDirectory(atPath: pictures)) ?? [] {
            checkXML(pictures + "/" + picture, &findings)
        }
        try command(
            ["run", scenario, "--view", "none", "--trace", hashes, "--hashes"] + duration, allowed: [0, 1],
            in: directory, &findings)
        checkTrace(hashes, hashes: true, &findings)
        try command(["verify", "--against", hashes], in: directory, &findings)
        try command(["diff", trace, trace, "--html", directory.path("diff.html")], in: directory, &findings)
        checkPage(directory.path("diff.html"), &findings)
        try command(
            ["render", trace, "--svg", directory.path("strip.svg"), "--html", directory.path("player.html")],
            in: directory, &findings)
        checkXML(directory.path("strip.svg"), &findings)
        checkPage(directory.path("player.html"), &findings)
        let name = URL(fileURLWithPath: scenario).lastPathComponent
        findings.problems = findings.problems.map { "\(name): \($0)" }
        return findings
    }

    @Test func everyCommandReadsAndWritesEveryShippedScenarioWithoutACrash() async throws {
        let scenarios = PackageFiles.shippedScenarios
        #expect(scenarios.count >= 18, "the shipped scenarios are found")
        // Two lanes: the machine has two cores, and each command is a process of its own.
        let lanes = 2
        let results = try await withThrowingTaskGroup(of: Findings.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var findings = Findings()
                    for index in stride(from: lane, to: scenarios.count, by: lanes) {
                        let one = try Self.perScenario(scenarios[index])
                        findings.problems += one.problems
                        findings.commands += one.commands
                    }
                    return findings
                }
            }
            var all = Findings()
            for try await findings in group {
                all.problems += findings.problems
                all.commands += findings.commands
            }
            return all
        }
        var findings = results
        try Self.whole(scenarios, &findings)
        #expect(findings.problems.isEmpty, "\(findings.problems.joined(separator: "\n"))")
        #expect(findings.commands == 5 * scenarios.count + 4)
    }

    /// The commands that take every scenario at once: `validate`, `test`, `batch` of a job per
    /// scenario and `batch-merge` of its summary.
    static func whole(_ scenarios: [String], _ findings: inout Findings) throws {
        let directory = try TemporaryDirectory()
        try command(["validate"] + scenarios, in: directory, &findings)
        // Whole runs: `test` cannot shorten a scenario (a `--set duration=1` makes its later
        // expectations bad input), and all of them take a few seconds.
        let junit = directory.path("test.xml"), json = directory.path("test.json")
        try command(
            ["test"] + scenarios + ["--junit", junit, "--json", json, "--pictures", directory.path("pictures")],
            allowed: [0, 1], in: directory, &findings)
        checkXML(junit, &findings)
        checkJSON(json, &findings)
        var jobs: [String] = []
        for (index, scenario) in scenarios.enumerated() {
            let duration = try hasEvents(scenario) ? "" : #", "duration": 1"#
            jobs.append(#"{"name": "job\#(index)", "run": "\#(scenario)", "trace": "job\#(index).jsonl"\#(duration)}"#)
        }
        let manifest = try directory.write(
            "batch.json", #"{"format": "tiltbox-batch/1", "jobs": [\#(jobs.joined(separator: ","))]}"#)
        let summary = directory.path("batch-result.json")
        try command(
            [
                "batch", manifest, "--json", summary, "--junit", directory.path("batch.xml"), "--csv",
                directory.path("batch.csv"),
            ],
            allowed: [0, 1], in: directory, &findings)
        checkJSON(summary, &findings)
        checkXML(directory.path("batch.xml"), &findings)
        for index in scenarios.indices { checkTrace(directory.path("job\(index).jsonl"), &findings) }
        try command(
            ["batch-merge", summary, "--json", directory.path("merged.json"), "--junit", directory.path("merged.xml")],
            allowed: [0, 1], in: directory, &findings)
        checkJSON(directory.path("merged.json"), &findings)
        checkXML(directory.path("merged.xml"), &findings)
    }
}
