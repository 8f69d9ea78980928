import Foundation
import Testing

/// Traces that describe their own run (docs/formats.md §3's `tiltbox`, `source`, `platform`)
/// and a `verify` that needs nothing but the trace, through the built binary.
@Suite struct SelfDescribingVerifyTests {
    /// A project folder with crate-stack.json (no tilt of its own) and a tilt recording,
    /// and a trace recorded into `golden/` with every tilt option away from its default.
    private func tiltedGolden(in directory: TemporaryDirectory) throws -> (project: String, trace: String) {
        let project = directory.path("project")
        try FileManager.default.createDirectory(atPath: project + "/scenarios/tilt", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: project + "/golden", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("crate-stack.json"), toPath: project + "/scenarios/crate-stack.json")
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("tilt/book-landscape.csv"),
            toPath: project + "/scenarios/tilt/book-landscape.csv")
        let trace = project + "/golden/tilted.jsonl"
        let run = try TiltboxBinary.run(
            [
                "run", project + "/scenarios/crate-stack.json",
                "--tilt", project + "/scenarios/tilt/book-landscape.csv",
                "--orientation", "landscapeRight", "--interpolate", "linear", "--g", "500",
                "--duration", "3", "--every", "20", "--trace", trace,
            ], in: directory)
        // The stack's expectations fail under this tilt (exit 1); the run itself completes.
        try #require(run.status == 1, "run stderr: \(run.stderr)")
        try #require(run.stdout.contains("outcome:        complete"), "run stdout: \(run.stdout)")
        return (project, trace)
    }

    private func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }

    @Test func theHeaderRecordsSourceAndPlatform() throws {
        let directory = try TemporaryDirectory()
        let (project, trace) = try tiltedGolden(in: directory)
        let header = try #require(try JSONLines.objects(file: trace).first)
        #expect((header["tiltbox"] as? String)?.isEmpty == false)
        let source = try #require(header["source"] as? [String: Any], "header: \(header)")
        // Relative to the trace file's folder, so a folder of goldens moves with its scenarios.
        #expect(source["scenario"] as? String == "../scenarios/crate-stack.json")
        #expect(source["tilt"] as? String == "../scenarios/tilt/book-landscape.csv")
        #expect(source["scenarioSHA256"] as? String == (try sha256sum(project + "/scenarios/crate-stack.json")))
        #expect(source["tiltSHA256"] as? String == (try sha256sum(project + "/scenarios/tilt/book-landscape.csv")))
        #expect(source["tiltFormat"] as? String == "tiltboxCSV")
        #expect(source["orientation"] as? String == "landscapeRight")
        #expect(source["interpolate"] as? String == "linear")
        #expect(JSONLines.number(source["g"]) == 500)
        #expect((source["overrides"] as? [String: Any])?.isEmpty == true)
        let platform = try #require(header["platform"] as? [String: Any])
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(platform["arch"] as? String == machine)
        #expect(platform["os"] as? String == "linux")
        #expect((platform["libc"] as? String)?.hasPrefix("glibc ") == true)
        #expect(platform["fma"] is Bool)
        // The library file the binary loads, found independently through ldd.
        let chipmunk = try loadedChipmunk()
        #expect(platform["chipmunkSHA256"] as? String == (try sha256sum(chipmunk)), "library: \(chipmunk)")
    }

    private func loadedChipmunk() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ldd", try TiltboxBinary.url().path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(output.split(separator: "\n").first { $0.contains("libchipmunk") }, "ldd: \(output)")
        let path = try #require(line.split(separator: " ").first { $0.hasPrefix("/") }, "ldd line: \(line)")
        return URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().path
    }

    @Test func builtInScenarioOnStandardOutputHasANullScenario() throws {
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(["run", "--trace", "-", "--duration", "0.1"], in: directory)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let header = try #require(JSONLines.objects(run.stdout, source: "stdout").first)
        let source = try #require(header["source"] as? [String: Any], "header: \(header)")
        #expect(source["scenario"] is NSNull)
        #expect(source["tilt"] is NSNull)
        #expect(source["scenarioSHA256"] == nil)
    }

    @Test func verifyOfATiltedTraceNeedsNeitherScenarioNorOptions() throws {
        let directory = try TemporaryDirectory()
        let (project, trace) = try tiltedGolden(in: directory)
        // The goldens and their scenarios move together.
        let moved = directory.path("moved")
        try FileManager.default.moveItem(atPath: project, toPath: moved)
        let movedTrace = moved + "/golden/tilted.jsonl"
        let bare = try TiltboxBinary.run(["verify", "--against", movedTrace], in: directory)
        #expect(bare.status == 0, "verify exited \(bare.status); stdout: \(bare.stdout) stderr: \(bare.stderr)")
        #expect(bare.stdout.contains("identical: 19 records"), "stdout: \(bare.stdout)")
        let named = try TiltboxBinary.run(
            ["verify", moved + "/scenarios/crate-stack.json", "--against", movedTrace], in: directory)
        #expect(named.status == 0, "verify exited \(named.status); stdout: \(named.stdout) stderr: \(named.stderr)")
        // An option given overrides the header's: another orientation is another run.
        let overridden = try TiltboxBinary.run(
            ["verify", "--against", movedTrace, "--orientation", "portrait"], in: directory)
        #expect(overridden.status == 1, "stdout: \(overridden.stdout) stderr: \(overridden.stderr)")
        _ = trace
    }

    @Test func aChangedTiltFileIsNamedInTheDivergence() throws {
        let directory = try TemporaryDirectory()
        let (project, trace) = try tiltedGolden(in: directory)
        let tilt = project + "/scenarios/tilt/book-landscape.csv"
        let text = try JSONLines.text(file: tilt)
        let changed = text.replacingOccurrences(of: "0.00,1.0016,-0.0020,-0.0183", with: "0.00,1.0016,-0.0030,-0.0183")
        try #require(changed != text, "book-landscape.csv no longer starts with the sample this test edits")
        try directory.write("project/scenarios/tilt/book-landscape.csv", changed)
        let verify = try TiltboxBinary.run(["verify", "--against", trace], in: directory)
        #expect(verify.status == 1, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(verify.stdout.contains("first divergence at step 0"), "stdout: \(verify.stdout)")
        #expect(
            verify.stdout.contains("note: the tilt input \(tilt) changed since the reference was recorded"),
            "stdout: \(verify.stdout)")
        #expect(!verify.stdout.contains("the scenario"), "the scenario did not change; stdout: \(verify.stdout)")
    }

    @Test func aTraceWithoutSourceNeedsItsScenarioNamed() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("crate-stack.json")
        let trace = directory.path("t.jsonl")
        #expect(
            try TiltboxBinary.run(["run", scenario, "--duration", "1", "--trace", trace], in: directory).status == 0)
        var lines = try JSONLines.lines(file: trace)
        // An older tiltbox wrote no tiltbox/source/platform keys.
        let cut = try #require(lines[0].range(of: #","tiltbox":"#))
        lines[0] = String(lines[0][..<cut.lowerBound]) + "}"
        let old = try directory.write("old.jsonl", lines.joined(separator: "\n") + "\n")
        let bare = try TiltboxBinary.run(["verify", "--against", old], in: directory)
        #expect(bare.status == 2, "stdout: \(bare.stdout) stderr: \(bare.stderr)")
        #expect(bare.stderr.contains("does not record its scenario"), "stderr: \(bare.stderr)")
        let named = try TiltboxBinary.run(["verify", scenario, "--against", old], in: directory)
        #expect(named.status == 0, "stdout: \(named.stdout) stderr: \(named.stderr)")
    }

    @Test func verifyAgainstAnotherScenariosTraceExitsTwoWithOneLine() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("pile.jsonl")
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("pile-100.json"), "--duration", "0.5", "--trace", trace], in: directory)
        try #require(run.status == 0, "run stderr: \(run.stderr)")
        let verify = try TiltboxBinary.run(
            ["verify", PackageFiles.scenario("crate-stack.json"), "--against", trace], in: directory)
        #expect(verify.status == 2, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(
            verify.stderrLines == [
                "tiltbox: reference trace is from scenario 'pile-100' (100 bodies); this run is 'crate-stack' (10 bodies)"
            ],
            "stderr: \(verify.stderr)")
        #expect(verify.stdout.isEmpty, "stdout: \(verify.stdout)")
    }

    @Test func verifyOfAnotherTimestepExitsTwo() throws {
        let directory = try TemporaryDirectory()
        let original = PackageFiles.scenario("crate-stack.json")
        let trace = directory.path("stack.jsonl")
        #expect(
            try TiltboxBinary.run(["run", original, "--duration", "0.5", "--trace", trace], in: directory).status == 0)
        let text = try JSONLines.text(file: original)
        let faster = text.replacingOccurrences(of: #""hz": 120"#, with: #""hz": 240"#)
        try #require(faster != text)
        let scenario = try directory.write("stack-240.json", faster)
        let verify = try TiltboxBinary.run(["verify", scenario, "--against", trace], in: directory)
        #expect(verify.status == 2, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(verify.stderrLines.count == 1, "stderr: \(verify.stderr)")
        #expect(
            verify.stderr.contains(
                "reference trace steps at dt = 0.008333333333333333 s (120 Hz); this run at dt = 0.004166666666666667 s (240 Hz)"
            ),
            "stderr: \(verify.stderr)")
    }

    /// Replaces the header's platform with another machine's and moves one value of
    /// record `recordIndex` by one ULP when `change` is set.
    private func edited(_ trace: String, in directory: TemporaryDirectory, foreign: Bool, change: Bool) throws -> String
    {
        var lines = try JSONLines.lines(file: trace)
        if foreign {
            let start = try #require(lines[0].range(of: #""platform":{"#))
            lines[0] =
                String(lines[0][..<start.lowerBound])
                + #""platform":{"arch":"aarch64","os":"linux","libc":"glibc 2.36","chipmunkSHA256":"\#(String(repeating: "e", count: 64))","fma":true}}"#
        }
        if change {
            let marker = #","s":[["#
            let start = try #require(lines[5].range(of: marker))
            let rest = lines[5][start.upperBound...]
            let comma = try #require(rest.firstIndex(of: ","))
            let value = try #require(Double(String(rest[..<comma])))
            lines[5] = String(lines[5][..<start.upperBound]) + value.nextUp.description + String(rest[comma...])
        }
        return try directory.write("edited-\(foreign)-\(change).jsonl", lines.joined(separator: "\n") + "\n")
    }

    @Test func aForeignPlatformIsNamedWhenTheTracesDiverge() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("stack.jsonl")
        #expect(
            try TiltboxBinary.run(
                ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--trace", trace], in: directory
            ).status == 0)

        let foreignChanged = try edited(trace, in: directory, foreign: true, change: true)
        let verify = try TiltboxBinary.run(["verify", "--against", foreignChanged], in: directory)
        #expect(verify.status == 1, "stdout: \(verify.stdout) stderr: \(verify.stderr)")
        #expect(verify.stdoutLines.count == 2, "stdout: \(verify.stdout)")
        #expect(verify.stdout.contains("reference = "), "stdout: \(verify.stdout)")
        #expect(verify.stdout.contains("this run = "), "stdout: \(verify.stdout)")
        #expect(verify.stdout.contains("another platform"), "stdout: \(verify.stdout)")
        #expect(verify.stdout.contains("aarch64"), "stdout: \(verify.stdout)")
        #expect(
            verify.stdout.contains("not expected across architectures, Chipmunk builds or libm variants"),
            "stdout: \(verify.stdout)")
        #expect(verify.stdout.contains("--tolerance"), "stdout: \(verify.stdout)")

        // The same change on this platform: no platform note.
        let localChanged = try edited(trace, in: directory, foreign: false, change: true)
        let local = try TiltboxBinary.run(["verify", "--against", localChanged], in: directory)
        #expect(local.status == 1, "stdout: \(local.stdout) stderr: \(local.stderr)")
        #expect(!local.stdout.contains("platform"), "stdout: \(local.stdout)")
        // A foreign platform whose traces agree passes.
        let foreignSame = try edited(trace, in: directory, foreign: true, change: false)
        let same = try TiltboxBinary.run(["verify", "--against", foreignSame], in: directory)
        #expect(same.status == 0, "stdout: \(same.stdout) stderr: \(same.stderr)")
    }

    @Test func diffNamesItsFilesNotAAndB() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("stack.jsonl")
        #expect(
            try TiltboxBinary.run(
                ["run", PackageFiles.scenario("crate-stack.json"), "--duration", "0.5", "--trace", trace], in: directory
            ).status == 0)
        let changed = try edited(trace, in: directory, foreign: false, change: true)
        let diff = try TiltboxBinary.run(["diff", trace, changed], in: directory)
        #expect(diff.status == 1)
        #expect(diff.stdout.contains(": \(trace) = "), "stdout: \(diff.stdout)")
        #expect(diff.stdout.contains(", \(changed) = "), "stdout: \(diff.stdout)")
        #expect(!diff.stdout.contains("A = ") && !diff.stdout.contains("B = "), "stdout: \(diff.stdout)")
    }
}
