import Foundation
import Testing

/// `--set PATH=JSON` on `run` and `verify`, and hash traces (`run --hashes`), through the built binary.
@Suite struct OverrideAndHashTraceTests {
    /// Three crates dropped into a box, one tilted so that they slide and tumble.
    private static let scenario = """
        {
          "format": "tiltbox-scenario/1",
          "name": "three-crates",
          "world": { "size": [480, 320], "gravity": [0, -980] },
          "timestep": { "hz": 120 },
          "duration": 2,
          "walls": { "box": true, "radius": 1, "friction": 0.8, "elasticity": 0.2 },
          "crates": [
            { "id": "a", "position": [200, 60], "size": [60, 30], "friction": 0.5 },
            { "id": "b", "position": [215, 140], "size": [40, 40], "angle": 0.4, "friction": 0.5 },
            { "id": "c", "position": [300, 200], "size": [30, 50], "angle": -0.3, "friction": 0.5 }
          ]
        }
        """

    private func project(_ directory: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: directory.path("golden"), withIntermediateDirectories: true)
        return try directory.write("three.json", Self.scenario)
    }

    /// The step of the first record line that differs between two full traces of the same length.
    private func firstDifferingStep(_ a: String, _ b: String) throws -> Int? {
        let linesA = try JSONLines.lines(file: a), linesB = try JSONLines.lines(file: b)
        // Shortest round-trip numbers: the texts differ exactly when some value's bits do.
        for (la, lb) in zip(linesA.dropFirst(), linesB.dropFirst()) where la != lb {
            guard la.hasPrefix("{\"step\":") else { return nil }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(la.utf8)) as? [String: Any])
            return object["step"] as? Int
        }
        return nil
    }

    // MARK: - Overrides

    @Test func aTraceRecordedWithOverridesVerifiesWithoutRepeatingThem() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let trace = directory.path("golden/set.jsonl")
        let run = try TiltboxBinary.run(
            [
                "run", scenario, "--set", "world.gravity=[0,-500]", "--set", "crates[*].friction=0.3",
                "--duration", "1", "--view", "none", "--trace", trace,
            ], in: directory)
        try #require(run.status == 0, "stderr: \(run.stderr)")
        let header = try #require(try JSONLines.lines(file: trace).first)
        #expect(
            header.contains(#""overrides":{"world.gravity":[0,-500],"crates[*].friction":0.3}"#), "header: \(header)")

        let verify = try TiltboxBinary.run(["verify", "--against", trace], in: directory)
        #expect(verify.status == 0, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(verify.stdout.hasPrefix("identical: "), "stdout: \(verify.stdout)")

        // A --set for a path the header records replaces it: another run, a divergence.
        let other = try TiltboxBinary.run(
            ["verify", "--against", trace, "--set", "world.gravity=[0,-400]"], in: directory)
        #expect(other.status == 1, "stdout: \(other.stdout) stderr: \(other.stderr)")
        #expect(other.stdout.contains("first divergence at step 0"), "stdout: \(other.stdout)")

        // Repeating the recorded value changes nothing.
        let same = try TiltboxBinary.run(
            ["verify", "--against", trace, "--set", "crates[*].friction=0.3"], in: directory)
        #expect(same.status == 0, "stdout: \(same.stdout) stderr: \(same.stderr)")

        // Without the overrides the run is another one: the header's were applied.
        let plain = try TiltboxBinary.run(
            [
                "verify", scenario, "--against", trace, "--set", "world.gravity=[0,-980]",
                "--set", "crates[*].friction=0.5",
            ], in: directory)
        #expect(plain.status == 1, "stdout: \(plain.stdout) stderr: \(plain.stderr)")
    }

    @Test func aWildcardSetsTheFieldOfEveryCrate() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let trace = directory.path("sizes.jsonl")
        let run = try TiltboxBinary.run(
            [
                "run", scenario, "--set", "crates[*].size=[12,14]", "--set", "crates[1].mass=3",
                "--duration", "0.1", "--view", "none", "--trace", trace,
            ], in: directory)
        try #require(run.status == 0, "stderr: \(run.stderr)")
        let header = try #require(try JSONLines.objects(file: trace).first)
        let sizes = try #require(header["sizes"] as? [[Any]])
        #expect(
            sizes.map { $0.map { JSONLines.number($0) } } == [[12, 14], [12, 14], [12, 14]], "header: \(header)")
        let masses = try #require(header["masses"] as? [Any]).map { JSONLines.number($0) }
        #expect(masses == [1, 3, 1], "header: \(header)")
    }

    @Test func aBadSetPathIsAnInputErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let cases: [(String, String)] = [
            (
                "crates[*].frction=1",
                #"--set crates[*].frction=1: unknown key "frction" in crates[0] (did you mean "friction"?)"#
            ),
            (
                "wrld.gravity=[0,1]",
                #"--set wrld.gravity=[0,1]: unknown key "wrld" in the scenario (did you mean "world"?)"#
            ),
            ("crates[3].size=[1,1]", "--set crates[3].size=[1,1]: index 3 is out of range: crates has 3 elements"),
            ("world[*].size=1", "--set world[*].size=1: world is an object, not an array: [*] cannot apply"),
            ("crates.[0]=1", #"--set crates.[0]=1: bad path "crates.[0]": unexpected "[""#),
        ]
        for (argument, message) in cases {
            let run = try TiltboxBinary.run(
                ["run", scenario, "--set", argument, "--view", "none", "--duration", "0.1"], in: directory)
            #expect(run.status == 2, "\(argument): stdout: \(run.stdout) stderr: \(run.stderr)")
            #expect(
                run.stderrLines.count == 1 && run.stderrLines.first?.hasPrefix(message) == true,
                "\(argument): stderr: \(run.stderr)")
        }
    }

    @Test func aBadSetValueIsAnInputErrorNamingTheSetAndTheField() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let negative = try TiltboxBinary.run(
            ["run", scenario, "--set", "crates[*].friction=-1", "--view", "none"], in: directory)
        #expect(negative.status == 2, "stderr: \(negative.stderr)")
        #expect(
            negative.stderrLines.count == 1
                && negative.stderrLines.first?.hasPrefix("--set crates[*].friction=-1: crates[0].friction: ") == true,
            "stderr: \(negative.stderr)")
        let notJSON = try TiltboxBinary.run(["run", scenario, "--set", "name=pile", "--view", "none"], in: directory)
        #expect(notJSON.status == 2, "stderr: \(notJSON.stderr)")
        #expect(
            notJSON.stderrLines.count == 1
                && notJSON.stderrLines.first?.hasPrefix("--set name=pile: the value is not JSON") == true,
            "stderr: \(notJSON.stderr)")
        // verify checks its own --set the same way.
        let trace = directory.path("t.jsonl")
        try #require(
            try TiltboxBinary.run(["run", scenario, "--duration", "0.1", "--trace", trace], in: directory).status == 0)
        let verify = try TiltboxBinary.run(["verify", "--against", trace, "--set", "timestep.hz=-5"], in: directory)
        #expect(verify.status == 2, "stderr: \(verify.stderr)")
        #expect(
            verify.stderrLines.first?.hasPrefix("--set timestep.hz=-5: timestep.hz: ") == true,
            "stderr: \(verify.stderr)")
    }

    // MARK: - Hash traces

    @Test func aHashTraceVerifiesAgainstItsOwnRun() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let golden = directory.path("golden/three.jsonl")
        let run = try TiltboxBinary.run(
            ["run", scenario, "--view", "none", "--trace", golden, "--hashes"], in: directory)
        try #require(run.status == 0, "stderr: \(run.stderr)")
        let objects = try JSONLines.objects(file: golden)
        #expect(objects.first?["records"] as? String == "hashes")
        let records = objects.dropFirst().dropLast()
        #expect(records.count == 241)
        #expect(records.allSatisfy { $0["s"] == nil && ($0["h"] as? String)?.hasPrefix("fnv1a64:") == true })
        let verify = try TiltboxBinary.run(["verify", "--against", golden], in: directory)
        #expect(verify.status == 0, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(verify.stdout == "identical: 241 records\n", "stdout: \(verify.stdout)")
    }

    @Test func aFullTraceAndAHashTraceOfOneRunAreIdentical() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let full = directory.path("full.jsonl"), hashes = directory.path("hashes.jsonl")
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "7", "--trace", full], in: directory).status == 0)
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "7", "--trace", hashes, "--hashes"], in: directory)
                .status == 0)
        // The end digest is the same: it covers the same bytes.
        #expect(
            try JSONLines.objects(file: full).last?["digest"] as? String
                == (try JSONLines.objects(file: hashes).last?["digest"] as? String))
        for (a, b) in [(full, hashes), (hashes, full)] {
            let diff = try TiltboxBinary.run(["diff", a, b], in: directory)
            #expect(diff.status == 0, "stdout: \(diff.stdout) stderr: \(diff.stderr)")
        }
        let tolerance = try TiltboxBinary.run(["diff", full, hashes, "--tolerance", "0.1"], in: directory)
        #expect(tolerance.status == 2, "stderr: \(tolerance.stderr)")
        let render = try TiltboxBinary.run(["render", hashes, "--html", directory.path("h.html")], in: directory)
        #expect(render.status == 2, "stderr: \(render.stderr)")
        #expect(render.stderr.contains("hash trace"), "stderr: \(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("h.html")))
    }

    @Test func aOneULPGravityChangeIsReportedAtTheFirstDifferingRecord() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        let ulp = "world.gravity=[0,-980.0000000000001]"
        let fullA = directory.path("a.jsonl"), fullB = directory.path("b.jsonl"),
            golden = directory.path("golden/g.jsonl")
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", fullA], in: directory).status == 0)
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", fullB, "--set", ulp], in: directory)
                .status == 0)
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", golden, "--hashes"], in: directory)
                .status == 0)
        let expected = try #require(try firstDifferingStep(fullA, fullB))
        let verify = try TiltboxBinary.run(["verify", "--against", golden, "--set", ulp], in: directory)
        #expect(verify.status == 1, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(
            verify.stdout.hasPrefix("differ: first divergence at step \(expected) ("),
            "expected step \(expected); stdout: \(verify.stdout)")
    }

    @Test func aHiddenOneULPChangeIsFoundOnHashesWithTheCommandsThatShowTheFields() throws {
        let directory = try TemporaryDirectory()
        let scenario = try project(directory)
        // Friction is in no record: only the states it changes show it.
        let ulp = "crates[*].friction=0.5000000000000001"
        let fullA = directory.path("a.jsonl"), fullB = directory.path("b.jsonl"),
            golden = directory.path("golden/g.jsonl")
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", fullA], in: directory).status == 0)
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", fullB, "--set", ulp], in: directory)
                .status == 0)
        try #require(
            try TiltboxBinary.run(["run", scenario, "--every", "5", "--trace", golden, "--hashes"], in: directory)
                .status == 0)
        let expected = try #require(try firstDifferingStep(fullA, fullB), "the change must show in the states")
        #expect(expected > 0)
        let verify = try TiltboxBinary.run(["verify", "--against", golden, "--set", ulp], in: directory)
        #expect(verify.status == 1, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        let lines = verify.stdoutLines
        #expect(
            lines.first?.hasPrefix("differ: first divergence at step \(expected) (") == true,
            "expected step \(expected); stdout: \(verify.stdout)")
        #expect(lines.first?.contains("the record hashes differ") == true, "stdout: \(verify.stdout)")
        #expect(
            verify.stdout.contains("--set 'crates[*].friction=0.5000000000000001' --every 1 --duration "),
            "stdout: \(verify.stdout)")
        #expect(
            verify.stdout.contains("tiltbox diff reference-fields.jsonl this-run-fields.jsonl"),
            "stdout: \(verify.stdout)")

        // The same with diff, hash golden against the changed run's full trace.
        let diff = try TiltboxBinary.run(["diff", golden, fullB], in: directory)
        #expect(diff.status == 1, "stdout: \(diff.stdout) stderr: \(diff.stderr)")
        #expect(
            diff.stdoutLines.first?.hasPrefix("differ: first divergence at step \(expected) (") == true,
            "stdout: \(diff.stdout)")
        #expect(diff.stdout.contains("tiltbox diff g-fields.jsonl b-fields.jsonl"), "stdout: \(diff.stdout)")
    }
}
