import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `run` and `test` with expectations, through the built binary: exit statuses, failure
/// lines, summaries, JUnit (counted by python3) and the film strip of a failure.
@Suite struct ExpectationCommandTests {
    /// A ball dropped from y = 280 onto the floor of a 480 × 320 box (lands near t = 0.74 s), 2 s.
    static func scenario(_ expect: String) -> String {
        """
        { "format": "tiltbox-scenario/1", "world": { "size": [480, 320] }, "duration": 2,
          "bodies": [ { "id": "ball", "position": [240, 280], "shapes": [ { "circle": { "radius": 10 }, "mass": 1 } ] } ],
          "expect": [ \(expect) ] }
        """
    }

    static let holding = #"{ "name": "stays in", "always": true, "body": "*", "inside": "world" }"#
    static let failing = #"{ "name": "low", "at": 1, "body": "ball", "inside": [[0, 0], [100, 50]] }"#
    /// Fails after `failing`: at t = 1.5 s (step 180) the ball rests on the floor, below y = 100.
    static let failingLater = #"{ "name": "high", "at": 1.5, "body": "ball", "yAbove": 100 }"#

    /// The JSON object in the file at `path` (a `--json` summary).
    static func jsonObject(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path)")
    }

    /// The jobs of a `tiltbox-batch-result/1` summary, by name.
    static func jobsByName(_ path: String) throws -> [String: [String: Any]] {
        let jobs = try #require(try jsonObject(path)["jobs"] as? [[String: Any]])
        return Dictionary(jobs.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func runExitsZeroWhenEveryExpectationHoldsAndCountsThem() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ok.json", Self.scenario(Self.holding))
        let result = try TiltboxBinary.run(["run", path, "--view", "none"], in: directory)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutLines.last == "expectations:   1 of 1 hold", "\(result.stdout)")
    }

    @Test func runExitsOneAndPrintsTheFailureLineAfterTheSummary() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", Self.scenario(Self.holding + ", " + Self.failing))
        let summary = directory.path("summary.json")
        let result = try TiltboxBinary.run(
            ["run", path, "--view", "none", "--every", "10", "--summary-json", summary], in: directory)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        let count = try #require(lines.firstIndex(of: "expectations:   1 of 2 hold"), "\(result.stdout)")
        #expect(lines.firstIndex(where: { $0.hasPrefix("digest:") }).map { $0 < count } == true)
        #expect(
            lines.last
                == "\(path): expect[1] (\"low\"): at t = 1 s (step 120), body 'ball' at (240, 10.9) is outside [[0,0],[100,50]] by 140"
                || lines.last?.hasPrefix(
                    "\(path): expect[1] (\"low\"): at t = 1 s (step 120), body 'ball' at (240, 10.") == true,
            "\(result.stdout)")
        let json = try #require(JSONLines.objects(file: summary).first)
        let expectations = try #require(json["expectations"] as? [[String: Any]])
        #expect(expectations.count == 2)
        #expect(expectations[0]["holds"] as? Bool == true)
        #expect(expectations[1]["holds"] as? Bool == false)
        #expect(JSONLines.number(expectations[1]["step"]) == 120)
        #expect(expectations[1]["body"] as? String == "ball")
    }

    @Test func runExitsTwoWithOneLocatedLineForABadExpectation() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("typo.json", Self.scenario(#"{ "at": 1, "body": "bal", "yAbove": 0 }"#))
        let result = try TiltboxBinary.run(["run", path, "--view", "none"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "tiltbox: \(path):3:35: expect[0].body: no body has the id \"bal\" (did you mean \"ball\"?)\n"
                || (result.stderrLines.count == 1 && result.stderr.contains("expect[0].body: no body has the id")),
            "\(result.stderr)")
    }

    @Test func testFindsScenariosWithExpectRecursivelyAndExitsByTheirResults() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("deep/er"), withIntermediateDirectories: true)
        try directory.write("deep/er/ok.json", Self.scenario(Self.holding))
        try directory.write("plain.json", #"{ "format": "tiltbox-scenario/1", "world": { "size": [100, 100] } }"#)
        try directory.write("other.json", #"{ "something": "else" }"#)
        let named = try TiltboxBinary.run(["test", directory.url.path, "--jobs", "2"], in: directory)
        #expect(named.status == 0, "stdout: \(named.stdout) stderr: \(named.stderr)")
        #expect(named.stdoutLines.last == "test: 1 scenario, 1 expectation: 1 hold, 0 fail; 1 of 1 runs passed")

        try directory.write("deep/bad.json", Self.scenario(Self.failing))
        let failing = try TiltboxBinary.run(["test", directory.url.path], in: directory)
        #expect(failing.status == 1, "stdout: \(failing.stdout)")
        #expect(failing.stdout.contains("bad.json: expect[0] (\"low\"): at t = 1 s (step 120), body 'ball'"))
        #expect(failing.stdoutLines.last == "test: 2 scenarios, 2 expectations: 1 hold, 1 fail; 1 of 2 runs passed")

        try directory.write("deep/broken.json", Self.scenario(#"{ "at": 9, "body": "ball", "yAbove": 0 }"#))
        let broken = try TiltboxBinary.run(["test", directory.path("deep/broken.json")], in: directory)
        #expect(broken.status == 2, "stdout: \(broken.stdout)")
        #expect(broken.stdout.contains("expect[0].at: t = 9 s is after the end of the run"), "\(broken.stdout)")
        let none = try TiltboxBinary.run(["test", directory.path("plain.json")], in: directory)
        #expect(none.status == 2)
        #expect(none.stderr.contains("has no \"expect\""), "\(none.stderr)")
    }

    @Test func aTruncatedScenarioInAFolderIsAnErrorNotSkipped() throws {
        let directory = try TemporaryDirectory()
        try directory.write("ok.json", Self.scenario(Self.holding))
        try directory.write("keys.json", #"{ "format": "tiltbox-tilt/1", "units": "g", "keyframes": [] }"#)
        let passing = try TiltboxBinary.run(["test", directory.url.path], in: directory)
        #expect(passing.status == 0, "stdout: \(passing.stdout) stderr: \(passing.stderr)")

        // A scenario cut short (a bad merge, a full disk): it would silently leave the gate.
        let whole = Self.scenario(Self.failing)
        let truncated = try directory.write("cut.json", String(whole.prefix(whole.count / 2)))
        let result = try TiltboxBinary.run(["test", directory.url.path], in: directory)
        #expect(result.status == 2, "stdout: \(result.stdout) stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("\(truncated):") == true, "\(result.stderr)")
        #expect(result.stderr.contains("not valid JSON"), "\(result.stderr)")
        #expect(!result.stdout.contains("runs passed"), "nothing runs: \(result.stdout)")
    }

    @Test func testShardsAndOverridesGoThroughTheBatchMachinery() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.json", Self.scenario(Self.holding))
        try directory.write("b.json", Self.scenario(Self.failing))
        // Sorted, a.json is index 0 and b.json index 1: shard 0/2 runs a.json only.
        let first = try TiltboxBinary.run(["test", directory.url.path, "--shard", "0/2"], in: directory)
        #expect(first.status == 0, "\(first.stdout)")
        #expect(first.stdoutLines.last == "test: 1 scenario, 1 expectation: 1 hold, 0 fail; 1 of 1 runs passed")
        let second = try TiltboxBinary.run(["test", directory.url.path, "--shard", "1/2"], in: directory)
        #expect(second.status == 1, "\(second.stdout)")
        // --set reaches every run: thrown up at 5 000 units/s, the ball leaves the world's box.
        let moved = try TiltboxBinary.run(
            ["test", directory.path("a.json"), "--set", "bodies[0].velocity=[0,5000]"], in: directory)
        #expect(moved.status == 1, "\(moved.stdout)")
        #expect(moved.stdout.contains("expect[0] (\"stays in\")"), "\(moved.stdout)")
    }

    @Test func testsJUnitCountsOneCasePerExpectationAsPythonReadsThem() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.json", Self.scenario(Self.holding + ", " + Self.failing))
        try directory.write("b.json", Self.scenario(Self.holding))
        let junit = directory.path("junit.xml")
        let result = try TiltboxBinary.run(["test", directory.url.path, "--junit", junit], in: directory)
        #expect(result.status == 1)
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            cases = root.findall('.//testcase')
            failed = [c for c in cases if c.find('failure') is not None]
            print(root.get('tests'), root.get('failures'), root.get('errors'), len(cases), len(failed), failed[0].get('name'))
            """
        let python = try ExternalCommand.run(
            "/usr/bin/env", ["python3", "-c", script, junit], timeout: Patience.generous)
        #expect(python.status == 0, "\(python.stderr)")
        #expect(python.stdout == "3 1 0 3 1 expect[1] (\"low\")\n", "\(python.stdout)")
    }

    @Test func picturesDrawTheBoundAndTheBodyWhereTheTraceHasIt() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", Self.scenario(Self.failing))
        let pictures = directory.path("pictures")
        let trace = directory.path("run.jsonl")
        let result = try TiltboxBinary.run(
            ["run", path, "--trace", trace, "--pictures", pictures], in: directory)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: pictures)
        #expect(files.count == 1, "\(files)")
        let svg = try String(contentsOfFile: pictures + "/" + (files.first ?? ""), encoding: .utf8)
        #expect(svg.contains(#"<rect class="bound" x="0" y="0" width="100" height="50""#), "no bound")
        // The failing panel (step 120) has the ring around the ball where the trace has it.
        let records = try JSONLines.objects(file: trace).filter { JSONLines.number($0["step"]) == 120 }
        let state = try #require((records.first?["s"] as? [[Any]])?.first)
        let x = try #require(JSONLines.number(state[0])), y = try #require(JSONLines.number(state[1]))
        let panel = try #require(svg.range(of: #"data-step="120""#))
        let after = svg[panel.upperBound...]
        let ring = try #require(after.range(of: #"<circle class="culprit" data-body="ball""#))
        let element = after[ring.lowerBound...].prefix(while: { $0 != ">" })
        #expect(element.contains("cx=\"\(RenderNumber.text(x, decimals: 2))\""), "\(element) x \(x)")
        #expect(element.contains("cy=\"\(RenderNumber.text(y, decimals: 2))\""), "\(element) y \(y)")
    }

    /// The pictures are drawn from what the run kept, not from a second run writing a temporary
    /// trace of every step (1.5 MB per simulated second of a pile): with no temporary folder to
    /// write in, they are drawn all the same (the second run could not create its trace: exit 1,
    /// no picture).
    @Test func picturesAreDrawnFromTheRunItselfWithoutATemporaryTrace() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", Self.scenario(Self.failing))
        let pictures = directory.path("pictures")
        let result = try TiltboxBinary.run(
            ["run", path, "--pictures", pictures], in: directory,
            environment: ["TMPDIR": directory.path("no-such-folder")])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("cannot"), "\(result.stderr)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: pictures)) ?? []
        #expect(files.count == 1 && files[0].hasSuffix("-bad-expect0.svg"), "\(files)")
    }

    @Test func testWithAFailingExpectationAndAnInvalidScenarioExitsOneAndReportsBoth() throws {
        // docs/commands.md: exit 1 when an expectation fails or a run fails, *else* 2 when a scenario is invalid.
        let directory = try TemporaryDirectory()
        try directory.write("ok.json", Self.scenario(Self.holding))
        try directory.write("bad.json", Self.scenario(Self.holding + ", " + Self.failing))
        try directory.write("broken.json", Self.scenario(#"{ "at": 9, "body": "ball", "yAbove": 0 }"#))
        let junit = directory.path("junit.xml")
        let mixed = try TiltboxBinary.run(["test", directory.url.path, "--junit", junit], in: directory)
        #expect(mixed.status == 1, "stdout: \(mixed.stdout) stderr: \(mixed.stderr)")
        #expect(
            mixed.stdout.contains("bad.json: expect[1] (\"low\"): at t = 1 s (step 120), body 'ball'"),
            "\(mixed.stdout)")
        #expect(
            mixed.stdout.contains("broken.json: error: ")
                && mixed.stdout.contains("broken.json:3:23: expect[0].at: t = 9 s is after the end of the run"),
            "\(mixed.stdout)")
        // The invalid scenario never ran: its expectation is not counted, its run not passed.
        #expect(mixed.stdoutLines.last == "test: 3 scenarios, 3 expectations: 2 hold, 1 fail; 1 of 3 runs passed")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="4" failures="1" errors="1""#), "\(xml)")

        // Without the failing expectation, the invalid scenario decides: 2.
        try FileManager.default.removeItem(atPath: directory.path("bad.json"))
        let invalid = try TiltboxBinary.run(["test", directory.url.path], in: directory)
        #expect(invalid.status == 2, "\(invalid.stdout)")
        #expect(invalid.stdoutLines.last == "test: 2 scenarios, 1 expectation: 1 hold, 0 fail; 1 of 2 runs passed")
    }

    @Test func testPicturesAreRunsFilmStripsOfEachFailingExpectationAndNoOther() throws {
        let directory = try TemporaryDirectory()
        try directory.write("ok.json", Self.scenario(Self.holding))
        let bad = try directory.write(
            "bad.json", Self.scenario(Self.holding + ", " + Self.failing + ", " + Self.failingLater))
        let pictures = directory.path("pictures")
        let result = try TiltboxBinary.run(
            ["test", directory.url.path, "--jobs", "2", "--pictures", pictures], in: directory)
        #expect(result.status == 1, "stdout: \(result.stdout) stderr: \(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
        try #require(files.count == 2, "\(files)")
        #expect(files[0].hasSuffix("-bad-expect1.svg") && files[1].hasSuffix("-bad-expect2.svg"), "\(files)")
        // Each is, byte for byte, the film strip `run --pictures` draws for the same scenario.
        let alone = directory.path("alone")
        let run = try TiltboxBinary.run(["run", bad, "--view", "none", "--pictures", alone], in: directory)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: alone).sorted() == files)
        for file in files {
            let fromTest = try Data(contentsOf: URL(fileURLWithPath: pictures + "/" + file))
            #expect(fromTest == (try Data(contentsOf: URL(fileURLWithPath: alone + "/" + file))), "\(file)")
        }
        // expect[1]: the box drawn, the ball ringed in the failing panel (step 120).
        let box = try String(contentsOfFile: pictures + "/" + files[0], encoding: .utf8)
        #expect(box.contains(#"<rect class="bound" x="0" y="0" width="100" height="50""#), "no box")
        let panel = try #require(box.range(of: #"data-step="120""#))
        #expect(box[panel.upperBound...].contains(#"<circle class="culprit" data-body="ball""#))
        // expect[2]: the line y = 100 drawn, the failing panel at step 180.
        let line = try String(contentsOfFile: pictures + "/" + files[1], encoding: .utf8)
        #expect(line.contains(#"<line class="bound""#) && line.contains(#"y1="100""#), "no line at y = 100")
        #expect(line.contains(#"data-step="180""#))
    }

    @Test func batchJobsFailWithTheFirstFailureLineAndBatchMergeReadsTheirExpectationsBack() throws {
        let directory = try TemporaryDirectory()
        try directory.write("ok.json", Self.scenario(Self.holding))
        try directory.write(
            "bad.json", Self.scenario(Self.holding + ", " + Self.failing + ", " + Self.failingLater))
        let manifest = try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [ { "name": "holding", "run": "ok.json" }, { "name": "failing", "run": "bad.json" } ] }
            """)
        let whole = directory.path("whole.json")
        let batch = try TiltboxBinary.run(
            ["batch", manifest, "--json", whole, "--junit", directory.path("whole.xml")], in: directory)
        #expect(batch.status == 1, "stdout: \(batch.stdout) stderr: \(batch.stderr)")
        #expect(batch.stdoutLines.last == "batch: 2 jobs: 1 passed, 0 diverged, 1 failed, 0 error")

        let jobs = try Self.jobsByName(whole)
        let holding = try #require(jobs["holding"]), failing = try #require(jobs["failing"])
        #expect(holding["status"] as? String == "passed")
        let held = try #require(holding["expectations"] as? [[String: Any]])
        #expect(held.count == 1)
        #expect(held.first?["label"] as? String == #"expect[0] ("stays in")"#)
        #expect(held.first?["holds"] as? Bool == true)
        #expect(held.first?["message"] is NSNull)

        #expect(failing["status"] as? String == "failed")
        #expect(failing["exit"] as? Int == 1)
        let reported = try #require(failing["expectations"] as? [[String: Any]])
        try #require(reported.count == 3)
        #expect(reported.map { $0["holds"] as? Bool } == [true, false, false])
        #expect(
            reported.map { $0["label"] as? String }
                == [#"expect[0] ("stays in")"#, #"expect[1] ("low")"#, #"expect[2] ("high")"#])
        let first = try #require(reported[1]["message"] as? String)
        let second = try #require(reported[2]["message"] as? String)
        #expect(
            first.contains(#"bad.json: expect[1] ("low"): at t = 1 s (step 120), body 'ball' at (240, 10."#), "\(first)"
        )
        #expect(second.contains(#"bad.json: expect[2] ("high"): at t = 1.5 s (step 180), body 'ball'"#), "\(second)")
        // The job's message, its line on standard output and its JUnit failure are the first failure line.
        #expect(failing["message"] as? String == first)
        #expect(batch.stdoutLines.contains("failing: failed: \(first)"), "\(batch.stdout)")
        let xml = try String(contentsOfFile: directory.path("whole.xml"), encoding: .utf8)
        #expect(xml.contains(#"<failure type="failed" message="\#(Markup.escape(first))">"#), "\(xml)")

        // Sharded in two and merged back: every job's expectations come through batch-merge unchanged.
        var shards: [String] = []
        for k in 0..<2 {
            shards.append(directory.path("shard-\(k).json"))
            let shard = try TiltboxBinary.run(
                ["batch", manifest, "--shard", "\(k)/2", "--json", shards[k]], in: directory)
            #expect(shard.status == Int32(k), "shard \(k): \(shard.stdout)")
        }
        let merged = directory.path("merged.json")
        let merge = try TiltboxBinary.run(["batch-merge"] + shards.reversed() + ["--json", merged], in: directory)
        #expect(merge.status == 1, "stdout: \(merge.stdout) stderr: \(merge.stderr)")
        #expect(merge.stdoutLines.contains("failing: failed: \(first)"), "\(merge.stdout)")
        let back = try Self.jobsByName(merged)
        for name in ["holding", "failing"] {
            let original = try #require(jobs[name]?["expectations"] as? [[String: Any]])
            let read = try #require(back[name]?["expectations"] as? [[String: Any]], "\(name)")
            #expect((read as NSArray) == (original as NSArray), "\(name)")
        }
        #expect(back["failing"]?["message"] as? String == first)
    }

    /// The shipped scenarios' expectations hold with this CPU's maths and with glibc's non-FMA
    /// maths, while the bit-for-bit digests of some scenarios differ between the two (on a CPU
    /// with FMA, where the tunable changes which `sin`/`cos` glibc takes).
    @Test func shippedScenariosHoldUnderBothMathsWhileDigestsDiffer() throws {
        let directory = try TemporaryDirectory()
        let native = directory.path("native.json"), plain = directory.path("plain.json")
        let scenarios = PackageFiles.root.appendingPathComponent("Scenarios").path
        let first = try TiltboxBinary.run(["test", scenarios, "--json", native], in: directory)
        #expect(first.status == 0, "\(first.stdout)")
        let second = try TiltboxBinary.run(
            ["test", scenarios, "--json", plain], in: directory,
            environment: ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F"])
        #expect(second.status == 0, "\(second.stdout)")
        func digests(_ path: String) throws -> [String: String] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let jobs = try #require(root["jobs"] as? [[String: Any]])
            var out: [String: String] = [:]
            for job in jobs { out[job["name"] as? String ?? ""] = job["digest"] as? String }
            return out
        }
        let a = try digests(native), b = try digests(plain)
        #expect(a.count == PackageFiles.shippedScenarios.count)
        let differ = a.keys.filter { a[$0] != b[$0] }.sorted()
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        if cpu.contains(" fma ") {
            #expect(!differ.isEmpty, "the tunable changed no digest: is it applied?")
        }
    }
}
