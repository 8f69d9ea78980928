import Foundation
import Testing

/// `tiltbox diff` and `tiltbox verify`, through the built binary.
@Suite struct DiffVerifyTests {
    @Test func runThenVerifyExitsZero() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("pile-100.json")
        let trace = directory.path("pile.jsonl")
        let run = try TiltboxBinary.run(["run", scenario, "--trace", trace, "--every", "10"], in: directory)
        #expect(run.status == 0, "run stderr: \(run.stderr)")
        let verify = try TiltboxBinary.run(["verify", scenario, "--against", trace], in: directory)
        #expect(verify.status == 0, "verify exited \(verify.status); stdout: \(verify.stdout) stderr: \(verify.stderr)")
        // 1200 steps every 10: steps 0, 10, ..., 1200.
        #expect(verify.stdout.contains("identical: 121 records"), "stdout: \(verify.stdout)")
    }

    @Test func verifyReportsAChangedScenarioWithExitOne() throws {
        let directory = try TemporaryDirectory()
        let original = PackageFiles.scenario("book.json")
        let trace = directory.path("book.jsonl")
        let run = try TiltboxBinary.run(["run", original, "--trace", trace], in: directory)
        #expect(run.status == 0, "run stderr: \(run.stderr)")

        let text = try JSONLines.text(file: original)
        let changed = text.replacingOccurrences(
            of: #""size": [50, 50], "mass": 2.0"#, with: #""size": [50, 50], "mass": 2.5"#)
        try #require(changed != text, "book.json no longer has the yellow crate's mass 2.0 this test edits")
        let heavier = try directory.write("book-heavier.json", changed)
        // book.json names its tilt recording relative to its folder: bring it along.
        try FileManager.default.createDirectory(atPath: directory.path("tilt"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("tilt/book-landscape.csv"),
            toPath: directory.path("tilt/book-landscape.csv"))

        let verify = try TiltboxBinary.run(["verify", heavier, "--against", trace], in: directory)
        #expect(verify.status == 1, "verify exited \(verify.status); stdout: \(verify.stdout) stderr: \(verify.stderr)")
        let message = verify.stdout + verify.stderr
        #expect(message.contains("first divergence at step "), "message: \(message)")
        #expect(message.contains(" body \""), "message: \(message)")
        #expect(message.contains(" field "), "message: \(message)")
        #expect(message.contains("reference = ") && message.contains("this run = "), "message: \(message)")
        // The copy has the same name and another SHA-256 than the header records.
        #expect(message.contains("changed since the reference was recorded"), "message: \(message)")
    }

    /// Writes a trace of book.json and a copy with one value moved to its `nextUp`.
    /// Returns both paths and the edited record's step.
    private func traceAndOneULPEdit(in directory: TemporaryDirectory, recordIndex: Int, body: Int, field: Int)
        throws -> (a: String, b: String, step: Int, old: Double, new: Double)
    {
        let a = directory.path("a.jsonl")
        let run = try TiltboxBinary.run(["run", PackageFiles.scenario("book.json"), "--trace", a], in: directory)
        try #require(run.status == 0, "run stderr: \(run.stderr)")
        var lines = try JSONLines.lines(file: a)
        let lineIndex = recordIndex + 1 // after the header
        let line = lines[lineIndex]
        // String surgery keeps every other number's text exactly as written.
        let marker = #","s":[["#
        let start = try #require(line.range(of: marker), "no states in \(line.prefix(80))")
        try #require(line.hasSuffix("]]}"))
        let statesText = line[start.upperBound..<line.index(line.endIndex, offsetBy: -3)]
        var bodies = statesText.components(separatedBy: "],[").map { $0.components(separatedBy: ",") }
        let old = try #require(Double(bodies[body][field]))
        let new = old.nextUp
        bodies[body][field] = new.description
        lines[lineIndex] =
            String(line[..<start.upperBound]) + bodies.map { $0.joined(separator: ",") }.joined(separator: "],[")
            + "]]}"
        let b = try directory.write("b.jsonl", lines.joined(separator: "\n") + "\n")
        let stepObject = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let step = try #require(JSONLines.number(stepObject?["step"]).map { Int($0) })
        return (a, b, step, old, new)
    }

    @Test func diffReportsAnInjectedOneULPChangeAtTheRightStepBodyAndField() throws {
        let directory = try TemporaryDirectory()
        // Record 300 (step 300), body 2 ("blue"), field 1 ("y").
        let edit = try traceAndOneULPEdit(in: directory, recordIndex: 300, body: 2, field: 1)
        #expect(edit.step == 300)
        let result = try TiltboxBinary.run(["diff", edit.a, edit.b], in: directory)
        #expect(result.status == 1, "diff exited \(result.status); stdout: \(result.stdout) stderr: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("step 300 "), "stdout: \(out)")
        #expect(out.contains(#"body "blue" field y"#), "stdout: \(out)")
        #expect(
            out.contains("\(edit.a) = \(edit.old.description), \(edit.b) = \(edit.new.description)"), "stdout: \(out)")
        #expect(out.contains("(1 ULP apart)"), "stdout: \(out)")
    }

    @Test func diffOfIdenticalTracesExitsZero() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("book.json")
        let a = directory.path("a.jsonl"), b = directory.path("b.jsonl")
        #expect(try TiltboxBinary.run(["run", scenario, "--trace", a], in: directory).status == 0)
        #expect(
            try TiltboxBinary.run(["run", scenario, "--trace", b, "--frames", "jitter:60:3"], in: directory).status == 0
        )
        let result = try TiltboxBinary.run(["diff", a, b], in: directory)
        #expect(result.status == 0, "diff exited \(result.status); stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stdout.contains("identical: 1201 records"), "stdout: \(result.stdout)")
        let same = try TiltboxBinary.run(["diff", a, a], in: directory)
        #expect(same.status == 0, "stdout: \(same.stdout) stderr: \(same.stderr)")
    }

    @Test func diffWithToleranceAcceptsTheChange() throws {
        let directory = try TemporaryDirectory()
        let edit = try traceAndOneULPEdit(in: directory, recordIndex: 300, body: 2, field: 1)
        let result = try TiltboxBinary.run(["diff", edit.a, edit.b, "--tolerance", "1e-9"], in: directory)
        #expect(result.status == 0, "diff exited \(result.status); stdout: \(result.stdout) stderr: \(result.stderr)")
        // Equal only within the tolerance: never called identical.
        #expect(result.stdout.hasPrefix("equal within 1e-9: "), "stdout: \(result.stdout)")
        #expect(!result.stdout.contains("identical"), "stdout: \(result.stdout)")
        // Bit-for-bit equal traces are still "identical", tolerance or not.
        let same = try TiltboxBinary.run(["diff", edit.a, edit.a, "--tolerance", "1e-9"], in: directory)
        #expect(same.status == 0 && same.stdout.hasPrefix("identical: "), "stdout: \(same.stdout)")
        // The same change is still caught by a tolerance smaller than the step.
        let tight = try TiltboxBinary.run(["diff", edit.a, edit.b, "--tolerance", "1e-20"], in: directory)
        #expect(tight.status == 1, "stdout: \(tight.stdout) stderr: \(tight.stderr)")
    }
}
