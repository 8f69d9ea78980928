import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `tiltbox batch` and `tiltbox batch-merge` through the built binary: manifests, statuses,
/// result files, sharding and merging.
@Suite struct BatchTests {
    // MARK: - Fixtures

    /// A folder with bounce.json, a passing golden and a copy with one value changed.
    private func project(_ directory: TemporaryDirectory) throws {
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("bounce.json"), toPath: directory.path("bounce.json"))
        try FileManager.default.createDirectory(atPath: directory.path("golden"), withIntermediateDirectories: true)
        let run = try TiltboxBinary.run(
            [
                "run", directory.path("bounce.json"), "--duration", "0.5", "--quiet",
                "--trace", directory.path("golden/pass.jsonl"),
            ], in: directory)
        try #require(run.status == 0, "run: \(run.stderr)")
        let text = try String(contentsOfFile: directory.path("golden/pass.jsonl"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex(where: { $0.hasPrefix("{\"step\":30,") }))
        let edited = lines[at].replacingOccurrences(of: "\"s\":[[60,", with: "\"s\":[[60.5,")
        try #require(edited != lines[at], "step 30 of the golden does not start with x = 60: \(lines[at].prefix(120))")
        lines[at] = edited
        try directory.write("golden/diverge.jsonl", lines.joined(separator: "\n"))
        try directory.write("bad.json", #"{"format": "tiltbox-scenario/1", "world": {"size": [-3, 100]}}"#)
    }

    /// A manifest of `plain` quick runs then a sweep of 9 (3 × 3) quick points: 3 + 9 jobs that pass.
    private func indexManifest(_ directory: TemporaryDirectory, plain: Int) throws -> String {
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("bounce.json"), toPath: directory.path("bounce.json"))
        var jobs = (0..<plain).map { #"{"name": "run\#($0)", "run": "bounce.json", "duration": 0.05}"# }
        jobs.append(
            #"{"name": "sw", "run": "bounce.json", "duration": 0.05, "sweep": {"world.gravity": [[0, -500], [0, -980], [0, -1200]], "timestep.hz": [60, 120, 240]}}"#
        )
        return try directory.write(
            "m.json", "{\"format\": \"tiltbox-batch/1\", \"jobs\": [\n" + jobs.joined(separator: ",\n") + "\n]}\n")
    }

    private func jsonObject(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not a JSON object")
    }

    private func jobs(_ summary: [String: Any]) throws -> [[String: Any]] {
        try #require(summary["jobs"] as? [[String: Any]])
    }

    /// Parses `path` with Python's strict XML parser and returns the root's counts and the
    /// testcases as (name, outcome) where outcome is passed, failure or error.
    private func junit(_ path: String) throws -> (counts: [String: Int], cases: [String: String]) {
        let script = """
            import sys, xml.etree.ElementTree as E
            root = E.parse(sys.argv[1]).getroot()
            print(" ".join(k + "=" + root.attrib[k] for k in ("tests", "failures", "errors")))
            for case in root.iter("testcase"):
                kind = "failure" if case.find("failure") is not None else "error" if case.find("error") is not None else "passed"
                print(kind, case.attrib["name"])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 could not parse \(path)")
        let lines = output.split(separator: "\n").map(String.init)
        var counts: [String: Int] = [:]
        for pair in try #require(lines.first).split(separator: " ") {
            let parts = pair.split(separator: "=")
            counts[String(parts[0])] = Int(parts[1])
        }
        var cases: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            cases[String(parts[1])] = String(parts[0])
        }
        return (counts, cases)
    }

    /// The pids of processes whose command line contains `marker`.
    private func processes(containing marker: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            return String(decoding: data, as: UTF8.self).contains(marker) ? pid : nil
        }
    }

    /// Waits (polling, with a generous deadline) for a process whose command line holds `marker`.
    private func waitForProcess(containing marker: String) throws -> pid_t {
        var found: pid_t?
        Patience.wait(interval: 0.05) {
            found = processes(containing: marker).first
            return found != nil
        }
        guard let found else { throw POSIXError(.ESRCH) }
        return found
    }

    // MARK: - Statuses and result files

    @Test func aBatchReportsPassedDivergedBadInputAndACrashedChild() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        // The long job is killed by this test while it runs: a real child killed by a signal.
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("pile-100.json"), toPath: directory.path("long-crash.json"))
        try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [
                { "name": "passing", "verify": "golden/pass.jsonl" },
                { "name": "diverging", "verify": "golden/diverge.jsonl" },
                { "name": "bad-scenario", "run": "bad.json" },
                { "name": "crashing", "run": "long-crash.json", "duration": \(Patience.unfinishableDuration) },
                { "name": "plain-run", "run": "bounce.json", "duration": 0.25 }
              ] }
            """)
        let out = directory.url.appendingPathComponent("batch.stdout"),
            err = directory.url.appendingPathComponent("batch.stderr")
        let batch = try TiltboxBinary.start(
            [
                "batch", directory.path("m.json"), "--jobs", "2", "--json", directory.path("r.json"),
                "--junit", directory.path("r.xml"), "--csv", directory.path("r.csv"),
            ],
            stdout: out, stderr: err)
        let child = try waitForProcess(containing: "long-crash.json")
        #expect(kill(child, SIGKILL) == 0)
        batch.waitForExit("after its child was killed")
        let stdout = try String(contentsOf: out, encoding: .utf8)
        let stderr = try String(contentsOf: err, encoding: .utf8)
        #expect(batch.terminationReason == .exit)
        #expect(batch.terminationStatus == 1, "stdout: \(stdout) stderr: \(stderr)")

        let summary = try jsonObject(directory.path("r.json"))
        #expect(summary["format"] as? String == "tiltbox-batch-result/1")
        #expect(summary["shard"] as? [Int] == [0, 1])
        let manifestBytes = try [UInt8](Data(contentsOf: directory.url.appendingPathComponent("m.json")))
        #expect(summary["manifestSHA256"] as? String == SHA256.hex(of: manifestBytes))
        let byName = Dictionary(uniqueKeysWithValues: try jobs(summary).map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["passing"]?["status"] as? String == "passed")
        #expect(byName["diverging"]?["status"] as? String == "diverged")
        #expect(byName["diverging"]?["exit"] as? Int == 1)
        let divergence = byName["diverging"]?["firstDivergence"] as? String ?? ""
        #expect(divergence.hasPrefix("differ: first divergence at step 30"), "\(divergence)")
        #expect(byName["bad-scenario"]?["status"] as? String == "error")
        #expect(byName["bad-scenario"]?["exit"] as? Int == 2)
        let badScenarioMessage = byName["bad-scenario"]?["message"] as? String ?? ""
        #expect(badScenarioMessage.contains("world.size"), "\(badScenarioMessage)")
        #expect(byName["crashing"]?["status"] as? String == "error")
        #expect(byName["crashing"]?["signal"] as? Int == Int(SIGKILL))
        #expect(byName["crashing"]?["exit"] is NSNull)
        #expect(byName["plain-run"]?["status"] as? String == "passed")
        #expect(byName["plain-run"]?["steps"] as? Int == 30)
        let plainRunDigest = byName["plain-run"]?["digest"] as? String ?? ""
        #expect(plainRunDigest.hasPrefix("fnv1a64:"), "\(plainRunDigest)")

        let (counts, cases) = try junit(directory.path("r.xml"))
        #expect(counts == ["tests": 5, "failures": 1, "errors": 2])
        #expect(
            cases == [
                "passing": "passed", "diverging": "failure", "bad-scenario": "error", "crashing": "error",
                "plain-run": "passed",
            ])
        #expect(stdout.contains("crashing: error: killed by signal 9"))

        let csv = try String(contentsOfFile: directory.path("r.csv"), encoding: .utf8)
        #expect(
            csv.hasPrefix("name,status,steps,digest,kineticEnergy,maxSpeed,restTime,bounds\npassing,passed,,,,,,\n"))
    }

    /// A scene whose world changes after t = 0: three balls spawned every 0.5 s (collision type
    /// `ball`), the first ball and the crate removed at 1.2 s, and a rule counting each contact a
    /// ball begins with the box walls (`bounces`); its expectations read the counter.
    static let changingScene = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 2,
         "walls": {"box": true, "collisionType": "wall"},
         "crates": [{"id": "c", "position": [100, 100]}],
         "timeline": [
           {"t": 0, "every": 0.5, "count": 3,
            "spawn": {"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]}},
           {"t": 1.2, "remove": ["ball#0", "c"]}],
         "rules": [{"on": "begin", "between": ["ball", "wall"], "do": [{"count": "bounces"}]}],
         "expect": [
           {"name": "nothing bounced yet", "at": 0.5, "counter": "bounces", "equals": 0},
           {"name": "every ball bounced", "at": 2, "counter": "bounces", "atLeast": 3},
           {"name": "the last ball is there", "at": 2, "body": "ball#2", "inside": "world"}]}
        """#

    @Test func aBatchJobOfATimelineAndRulesFollowsSpawnsRemovalsAndCounters() throws {
        let directory = try TemporaryDirectory()
        let scene = try directory.write("changing.json", Self.changingScene)
        try FileManager.default.createDirectory(atPath: directory.path("out"), withIntermediateDirectories: true)
        try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [
              {"name": "changing", "run": "changing.json", "trace": "out/changing.jsonl"},
              {"name": "weightless", "run": "changing.json", "set": {"world.gravity": [0, 0]}}]}
            """)
        let batch = try TiltboxBinary.run(
            ["batch", directory.path("m.json"), "--json", directory.path("r.json")], in: directory)
        // Without gravity no ball reaches a wall: the counter stays 0 and that job fails.
        #expect(batch.status == 1, "batch: \(batch.stdout)\(batch.stderr)")
        let byName = Dictionary(
            uniqueKeysWithValues: try jobs(jsonObject(directory.path("r.json"))).map {
                ($0["name"] as? String ?? "", $0)
            })
        let job = try #require(byName["changing"])
        #expect(job["status"] as? String == "passed", "\(job)")
        #expect(job["steps"] as? Int == 240)

        // The job's trace: spawns and removals as events, the rule's counter on its end line.
        let lines = try String(contentsOfFile: directory.path("out/changing.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix(#"{"event":"spawn""#) }.count == 3)
        #expect(lines.filter { $0.hasPrefix(#"{"event":"remove""#) }.count == 2)
        let endLine = try #require(lines.last)
        let end = try #require(try JSONSerialization.jsonObject(with: Data(endLine.utf8)) as? [String: Any])
        let counters = try #require(end["counters"] as? [String: Int], "\(end)")
        let bounces = try #require(counters["bounces"])
        #expect(bounces >= 3 && lines.filter { $0.contains(#""event":"begin""#) }.count == bounces)
        // The same scene run directly: the batch's digest and metrics are that run's.
        let summary = directory.path("direct.json")
        let direct = try TiltboxBinary.run(
            ["run", scene, "--view", "none", "--summary-json", summary, "-q"], in: directory)
        #expect(direct.status == 0, "run: \(direct.stderr)")
        let directSummary = try jsonObject(summary)
        #expect(job["digest"] as? String == directSummary["digest"] as? String)
        #expect(
            (job["metrics"] as? NSDictionary) == (directSummary["metrics"] as? NSDictionary),
            "batch \(String(describing: job["metrics"])), run \(String(describing: directSummary["metrics"]))")

        // The metrics' bounds are those of the bodies the last record lists (ball#1 and ball#2,
        // radius 8): the crate at x = 100 and ball#0 are gone.
        let (bodies, expected) = try JSONLines.bodyBounds(
            atStep: 240, reach: 8, trace: directory.path("out/changing.jsonl"))
        #expect(bodies == 2)
        let bounds = try #require((job["metrics"] as? [String: Any])?["bounds"] as? [Double])
        #expect(bounds.count == 4 && zip(bounds, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(bounds)")
        #expect(bounds[0] > 200, "the removed crate at x = 100 still counts: \(bounds)")

        // The expectations on the counter, reported per job.
        let expectations = try #require(job["expectations"] as? [[String: Any]])
        #expect(expectations.map { $0["holds"] as? Bool } == [true, true, true], "\(expectations)")
        let weightless = try #require(byName["weightless"])
        #expect(weightless["status"] as? String == "failed")
        let reported = try #require(weightless["expectations"] as? [[String: Any]])
        #expect(reported.map { $0["holds"] as? Bool } == [true, false, true], "\(reported)")
        let message = weightless["message"] as? String ?? ""
        #expect(
            message.contains(#"expect[1] ("every ball bounced")"#) && message.contains("counter 'bounces' is 0"),
            "\(message)")
    }

    @Test func theExitStatusIsTwoWhenTheOnlyProblemIsBadInput() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        try directory.write(
            "m.json",
            #"{"format": "tiltbox-batch/1", "jobs": [{"name": "ok", "verify": "golden/pass.jsonl"}, {"name": "bad", "run": "bad.json"}]}"#
        )
        let result = try TiltboxBinary.run(["batch", directory.path("m.json")], in: directory)
        #expect(result.status == 2)
        #expect(result.stdoutLines.last == "batch: 2 jobs: 1 passed, 0 diverged, 0 failed, 1 error")
        try directory.write(
            "ok.json", #"{"format": "tiltbox-batch/1", "jobs": [{"name": "ok", "verify": "golden/pass.jsonl"}]}"#)
        #expect(try TiltboxBinary.run(["batch", directory.path("ok.json")], in: directory).status == 0)
    }

    @Test func aSweepExpandsToNamedPointsLastKeyFastest() throws {
        let directory = try TemporaryDirectory()
        let manifest = try indexManifest(directory, plain: 0)
        let result = try TiltboxBinary.run(
            ["batch", manifest, "--csv", directory.path("s.csv"), "--json", directory.path("s.json")], in: directory)
        // Each point runs with its values: 0.05 s is 3, 6 and 12 steps at 60, 120 and 240 Hz.
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let csv = try String(contentsOfFile: directory.path("s.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").map(String.init)
        #expect(
            rows.first == "name,status,world.gravity,timestep.hz,steps,digest,kineticEnergy,maxSpeed,restTime,bounds")
        let expected = [
            #"sw[0],passed,"[0,-500]",60,3,"#, #"sw[1],passed,"[0,-500]",120,6,"#,
            #"sw[2],passed,"[0,-500]",240,12,"#, #"sw[3],passed,"[0,-980]",60,3,"#,
        ]
        for (row, start) in zip(rows.dropFirst(), expected) {
            #expect(row.hasPrefix(start + "fnv1a64:"), "\(row) is not \(start) and a digest")
        }
        #expect(rows.count == 10)
        let points = SweepExpansion.points([("a", [1, 2]), ("b", [3, 4, 5])]).map { $0.map(\.json) }
        #expect(points == [[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]])
    }

    // MARK: - Manifest errors

    @Test func manifestErrorsNameFileLineColumnAndField() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String)] = [
            (
                "{\"format\": \"tiltbox-batch/1\", \"jobs\": [\n  {\"name\": \"a\", \"run\": \"s.json\", \"orientaton\": \"portrait\"}]}",
                "m.json:2:34: jobs[0].orientaton: unknown key"
            ),
            (
                "{\"format\": \"tiltbox-batch/1\", \"jobs\": [\n  {\"name\": \"a\", \"run\": \"s.json\", \"duration\": -1}]}",
                "m.json:2:46: jobs[0].duration: -1 is out of range"
            ),
            (
                "{\"format\": \"tiltbox-batch/1\", \"jobs\": [{\"name\": \"a\", \"run\": \"s.json\"}, {\"name\": \"a\", \"verify\": \"g\"}]}",
                "jobs[1].name: \"a\" is already the name of jobs[0]"
            ),
            (
                "{\"format\": \"tiltbox-batch/1\", \"jobs\": [{\"name\": \"a\", \"run\": \"s\", \"verify\": \"g\"}]}",
                "jobs[0]: a job has one of \"verify\" and \"run\", not both"
            ),
            (
                "{\"format\": \"tiltbox-batch/1\", \"jobs\": [{\"name\": \"a\", \"run\": \"s\", \"sweep\": {\"x\": []}}]}",
                "jobs[0].sweep.x: an empty list sweeps nothing"
            ),
            ("{\"format\": \"tiltbox-batch/2\", \"jobs\": []}", "format: expected \"tiltbox-batch/1\""),
        ]
        for (text, expected) in cases {
            let manifest = try directory.write("m.json", text)
            let result = try TiltboxBinary.run(["batch", manifest, "--json", directory.path("r.json")], in: directory)
            #expect(result.status == 2, "\(text)")
            #expect(
                result.stderrLines.count == 1 && result.stderr.contains(expected), "\(result.stderr) lacks \(expected)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("r.json")))
        }
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        let manifest = try directory.write(
            "m.json", #"{"format": "tiltbox-batch/1", "jobs": [{"name": "ok", "verify": "golden/pass.jsonl"}]}"#)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.path("golden/pass.jsonl")))
        let result = try TiltboxBinary.run(
            ["batch", manifest, "--junit", directory.path("golden/pass.jsonl")], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--junit is the same file as an input of job ok"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("golden/pass.jsonl"))) == before)
        #expect(try TiltboxBinary.run(["batch", manifest, "--json", manifest], in: directory).status == 2)
    }

    @Test func verifyShorthandExpandsThePatternSorted() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        let result = try TiltboxBinary.run(
            ["batch", "--verify", directory.path("golden/*.jsonl"), "--json", directory.path("r.json")], in: directory)
        #expect(result.status == 1)
        let names = try jobs(try jsonObject(directory.path("r.json"))).map { $0["name"] as? String ?? "" }
        #expect(names == [directory.path("golden/diverge.jsonl"), directory.path("golden/pass.jsonl")])
        let none = try TiltboxBinary.run(["batch", "--verify", directory.path("nothing/*.jsonl")], in: directory)
        #expect(none.status == 2)
        #expect(none.stderr.contains("no file matches"))
    }

    /// The digest of `tiltbox run bounce.json --duration 0.05` with `sets` given directly.
    private func directDigest(_ directory: TemporaryDirectory, _ sets: [String]) throws -> String? {
        let summary = directory.path("direct-\(UUID().uuidString).json")
        let run = try TiltboxBinary.run(
            [
                "run", directory.path("bounce.json"), "--duration", "0.05", "--view", "none", "--quiet",
                "--summary-json", summary,
            ] + sets.flatMap { ["--set", $0] }, in: directory)
        try #require(run.status == 0, "run: \(run.stderr)")
        return try jsonObject(summary)["digest"] as? String
    }

    @Test func aSweepWithSetRunsEachPointAsTiltboxRunWithThoseOverrides() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        try directory.write(
            "m.json",
            #"""
            {"format": "tiltbox-batch/1", "jobs": [{"name": "g", "run": "bounce.json", "duration": 0.05,
              "set": {"timestep.hz": 120, "world.gravity": [0, -1]}, "sweep": {"world.gravity": [[0, -500], [0, -980], [0, -1200]]}}]}
            """#)
        let result = try TiltboxBinary.run(
            ["batch", directory.path("m.json"), "--csv", directory.path("g.csv"), "--json", directory.path("g.json")],
            in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let rows = try String(contentsOfFile: directory.path("g.csv"), encoding: .utf8).split(separator: "\n").map(
            String.init)
        #expect(rows.count == 4)
        #expect(rows.first == "name,status,world.gravity,steps,digest,kineticEnergy,maxSpeed,restTime,bounds")
        let jobs = try jobs(jsonObject(directory.path("g.json")))
        #expect(jobs.count == 3)
        var digests: Set<String> = []
        for (i, gravity) in ["[0,-500]", "[0,-980]", "[0,-1200]"].enumerated() {
            let job = try #require(jobs.first { $0["index"] as? Int == i })
            // The sweep value comes after the job's set: it replaces world.gravity [0, -1].
            let direct = try directDigest(directory, ["timestep.hz=120", "world.gravity=\(gravity)"])
            #expect(job["name"] as? String == "g[\(i)]")
            #expect(job["steps"] as? Int == 6)
            #expect(job["digest"] as? String == direct)
            // The run's metrics are copied from its summary.
            let metrics = try #require(job["metrics"] as? [String: Any], "g[\(i)] has metrics")
            #expect(metrics["digest"] as? String == direct)
            #expect((metrics["bounds"] as? [Double])?.count == 4)
            #expect(rows[i + 1].hasPrefix("g[\(i)],passed,\"\(gravity)\",6,\(direct ?? "-")"), "\(rows[i + 1])")
            digests.insert(direct ?? "")
        }
        #expect(digests.count == 3, "each point ran with its own gravity")
    }

    @Test func verifyJobsPassAgainstHashGoldensAndGoldensRecordedWithSet() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        let hashed = try TiltboxBinary.run(
            [
                "run", directory.path("bounce.json"), "--duration", "0.5", "--quiet", "--hashes",
                "--trace", directory.path("golden/hashes.jsonl"),
            ], in: directory)
        try #require(hashed.status == 0, "run --hashes: \(hashed.stderr)")
        let overridden = try TiltboxBinary.run(
            [
                "run", directory.path("bounce.json"), "--duration", "0.5", "--quiet",
                "--set", "world.gravity=[0,-500]", "--trace", directory.path("golden/set.jsonl"),
            ], in: directory)
        try #require(overridden.status == 0, "run --set: \(overridden.stderr)")
        try directory.write(
            "m.json",
            #"""
            {"format": "tiltbox-batch/1", "jobs": [
              {"name": "hashes", "verify": "golden/hashes.jsonl"},
              {"name": "set", "verify": "golden/set.jsonl"},
              {"name": "set-changed", "verify": "golden/set.jsonl", "set": {"world.gravity": [0, -980]}},
              {"name": "hashes-changed", "verify": "golden/hashes.jsonl", "set": {"world.gravity": [0, -500]}},
              {"name": "record", "run": "bounce.json", "duration": 0.5, "hashes": true, "trace": "out/h.jsonl"}]}
            """#)
        try FileManager.default.createDirectory(atPath: directory.path("out"), withIntermediateDirectories: true)
        let result = try TiltboxBinary.run(
            ["batch", directory.path("m.json"), "--json", directory.path("r.json")], in: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let statuses = Dictionary(
            uniqueKeysWithValues: try jobs(jsonObject(directory.path("r.json"))).map {
                ($0["name"] as? String ?? "?", $0["status"] as? String ?? "?")
            })
        #expect(
            statuses == [
                "hashes": "passed", "set": "passed", "set-changed": "diverged", "hashes-changed": "diverged",
                "record": "passed",
            ])
        // The batch's hash trace is the same as the one run --hashes wrote.
        let recorded = try String(contentsOfFile: directory.path("out/h.jsonl"), encoding: .utf8)
        #expect(recorded.contains(#""records":"hashes""#))
        let golden = try String(contentsOfFile: directory.path("golden/hashes.jsonl"), encoding: .utf8)
        #expect(recorded.split(separator: "\n").dropFirst() == golden.split(separator: "\n").dropFirst())
    }

    // MARK: - Sharding

    @Test func shardsOfOneToFiveCoverEveryJobExactlyOnce() throws {
        let directory = try TemporaryDirectory()
        let manifest = try indexManifest(directory, plain: 3)
        let total = 3 + 9
        for n in 1...5 {
            var seen: [Int: Int] = [:]
            for k in 0..<n {
                let path = directory.path("shard-\(k)-of-\(n).json")
                let result = try TiltboxBinary.run(
                    ["batch", manifest, "--shard", "\(k)/\(n)", "--json", path], in: directory)
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let summary = try jsonObject(path)
                #expect(summary["shard"] as? [Int] == [k, n])
                #expect(summary["jobCount"] as? Int == total)
                for job in try jobs(summary) {
                    let index = try #require(job["index"] as? Int)
                    #expect(index % n == k)
                    seen[index, default: 0] += 1
                }
            }
            #expect(seen.count == total && seen.values.allSatisfy { $0 == 1 }, "N = \(n): \(seen)")
        }
    }

    @Test func shardAutoReadsSlurmKubernetesAndGNUParallel() throws {
        let directory = try TemporaryDirectory()
        let manifest = try indexManifest(directory, plain: 0)
        let cases: [([String: String], [Int])] = [
            (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"], [2, 4]),
            (["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8"], [2, 4]),
            (["JOB_COMPLETION_INDEX": "1", "TILTBOX_SHARDS": "3"], [1, 3]),
            (["PARALLEL_SEQ": "3", "TILTBOX_SHARDS": "4"], [2, 4]),
        ]
        for (environment, shard) in cases {
            let path = directory.path("auto.json")
            let result = try TiltboxBinary.run(
                ["batch", manifest, "--shard", "auto", "--json", path], in: directory, environment: environment)
            #expect(result.status == 0, "\(environment): \(result.stderr)")
            #expect(try jsonObject(path)["shard"] as? [Int] == shard, "\(environment)")
        }
        let missing = try TiltboxBinary.run(
            ["batch", manifest, "--shard", "auto"], in: directory, environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("TILTBOX_SHARDS"))
        let outOfRange = try TiltboxBinary.run(
            ["batch", manifest, "--shard", "auto"], in: directory,
            environment: ["PARALLEL_SEQ": "5", "TILTBOX_SHARDS": "4"])
        #expect(outOfRange.status == 2)
        #expect(outOfRange.stderr.contains("shard 4 is not in 0…3"))
        let bad = try TiltboxBinary.run(["batch", manifest, "--shard", "4/4"], in: directory)
        #expect(bad.status == 2)
    }

    @Test func shardAutoWithoutASchedulerNamesTheVariablesItLookedFor() throws {
        let shard = BatchShard.auto(environment: ["HOME": "/root"])
        guard case .failure(let error) = shard else {
            Issue.record("auto found a shard in an environment without a scheduler")
            return
        }
        for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "PARALLEL_SEQ", "TILTBOX_SHARDS"] {
            #expect(error.description.contains(name))
        }
    }

    // MARK: - Merging

    @Test func aMergeOfFourShardsEqualsTheUnshardedBatch() throws {
        let directory = try TemporaryDirectory()
        let manifest = try indexManifest(directory, plain: 3)
        let whole = try TiltboxBinary.run(
            ["batch", manifest, "--json", directory.path("whole.json"), "--junit", directory.path("whole.xml")],
            in: directory)
        #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")
        var shards: [String] = []
        for k in 0..<4 {
            shards.append(directory.path("shard-\(k).json"))
            _ = try TiltboxBinary.run(["batch", manifest, "--shard", "\(k)/4", "--json", shards[k]], in: directory)
        }
        let merge = try TiltboxBinary.run(
            ["batch-merge"] + shards.reversed() + [
                "--json", directory.path("merged.json"), "--junit", directory.path("merged.xml"),
            ], in: directory)
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
        func withoutWallTimes(_ path: String) throws -> NSDictionary {
            var summary = try jsonObject(path)
            summary["jobs"] = try jobs(summary).map { job in job.filter { $0.key != "wallSeconds" } }
            return summary as NSDictionary
        }
        #expect(
            try withoutWallTimes(directory.path("merged.json")) == (try withoutWallTimes(directory.path("whole.json"))))
        #expect(try junit(directory.path("merged.xml")).cases == (try junit(directory.path("whole.xml")).cases))
    }

    @Test func aMergeRefusesOtherManifestsAndMissingOrDuplicateShards() throws {
        let directory = try TemporaryDirectory()
        let manifest = try indexManifest(directory, plain: 0)
        let other = try directory.write(
            "other.json",
            #"{"format": "tiltbox-batch/1", "jobs": [{"name": "x", "run": "bounce.json", "sweep": {"a": [1, 2]}}]}"#)
        for k in 0..<2 {
            _ = try TiltboxBinary.run(
                ["batch", manifest, "--shard", "\(k)/2", "--json", directory.path("a\(k).json")], in: directory)
            _ = try TiltboxBinary.run(
                ["batch", other, "--shard", "\(k)/2", "--json", directory.path("b\(k).json")], in: directory)
        }
        let mixed = try TiltboxBinary.run(
            [
                "batch-merge", directory.path("a0.json"), directory.path("b1.json"), "--json",
                directory.path("merged.json"),
            ], in: directory)
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("b1.json: manifestSHA256: is a shard of another manifest"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("merged.json")))
        let missing = try TiltboxBinary.run(["batch-merge", directory.path("a1.json")], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing shard 0/2 of 2"))
        let twice = try TiltboxBinary.run(
            ["batch-merge", directory.path("a0.json"), directory.path("a0.json"), directory.path("a1.json")],
            in: directory)
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("shard 0/2 is given twice"))
    }

    // MARK: - Interruption

    @Test func anInterruptedBatchStopsItsChildrenAndStillWritesValidResults() throws {
        let directory = try TemporaryDirectory()
        try project(directory)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("pile-100.json"), toPath: directory.path("long-interrupt.json"))
        try directory.write(
            "m.json",
            """
            {"format": "tiltbox-batch/1", "jobs": [
              {"name": "first", "verify": "golden/pass.jsonl"},
              {"name": "long", "run": "long-interrupt.json", "duration": \(Patience.unfinishableDuration)}]}
            """)
        let out = directory.url.appendingPathComponent("o"), err = directory.url.appendingPathComponent("e")
        let batch = try TiltboxBinary.start(
            [
                "batch", directory.path("m.json"), "--jobs", "1", "--json", directory.path("r.json"),
                "--junit", directory.path("r.xml"),
            ], stdout: out, stderr: err)
        let child = try waitForProcess(containing: "long-interrupt.json")
        batch.terminate()
        batch.waitForExit("after SIGTERM")
        #expect(batch.terminationReason == .exit)
        #expect(batch.terminationStatus == 143)
        #expect(
            Patience.wait { kill(child, 0) != 0 && processes(containing: "long-interrupt.json").isEmpty },
            "the long child still runs")
        let finished = try jobs(try jsonObject(directory.path("r.json")))
        #expect(finished.map { $0["name"] as? String } == ["first"])
        #expect(try junit(directory.path("r.xml")).counts == ["tests": 1, "failures": 0, "errors": 0])
    }
}
