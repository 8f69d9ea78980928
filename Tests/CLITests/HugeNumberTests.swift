import Foundation
import Testing

/// Huge but finite numbers through the built binary: tilt readings that overflow once
/// scaled by g, in every tilt format, refused by `validate` and `run` alike with the
/// sample's line and column; numbers that once reached an unchecked `Int(_:)`.
/// Nothing may trap (a trap exits 132 or 133 and prints "Fatal error").
@Suite struct HugeNumberTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var contents: String
        /// Where the message must point: `file:line:column` and a field path when structured.
        var location: String
        var metadata: String? = nil
        var testDescription: String { name }
    }

    static let keyframes = #"{"format":"tiltbox-tilt/1","keyframes":[{"t":0,"gravity":[0,-1]},"#

    static let cases: [Case] = [
        Case(name: "Tiltbox CSV 1e308", file: "huge.csv", contents: "t,x,y\n0,0,-1\n1,1e308,-1\n", location: ":3:3:"),
        Case(
            name: "Tiltbox CSV largest double in y", file: "max.csv",
            contents: "t,x,y\n0,0,-1\n0.5, 0 , 1.7976931348623157e308\n", location: ":3:10:"),
        Case(
            name: "Tiltbox CSV just past the bound", file: "edge.csv",
            contents: "t,x,y\n0,0,-1\n1,1020.5,-1\n", location: ":3:3:"),
        Case(
            name: "phyphox with decimal commas", file: "Raw Data.csv",
            contents:
                "\"Time (s)\"\t\"Acceleration x (m/s^2)\"\t\"Acceleration y (m/s^2)\"\t\"Acceleration z (m/s^2)\"\n"
                + "0\t0\t9,8\t0\n1\t1,7976931348623157e308\t9,8\t0\n",
            location: ":3:3:"),
        Case(
            name: "Sensor Logger Gravity.csv", file: "Gravity.csv",
            contents: "time,seconds_elapsed,z,y,x\n0,0,0,-9.8,0\n1,1,0,-9.8,1e308\n", location: ":3:12:",
            metadata: "platform\nios\n"),
        Case(
            name: "keyframes in g", file: "huge.json",
            contents: keyframes + #"{"t":1,"gravity":[1.7976931348623157e308,-1]}]}"#,
            location: ":1:83: keyframes[1].gravity:"),
        Case(
            name: "keyframes in world units", file: "world.json",
            contents:
                #"{"format":"tiltbox-tilt/1","units":"world","keyframes":[{"t":0,"gravity":[0,-980]},{"t":1,"gravity":[1e308,-980]}]}"#,
            location: ":1:101: keyframes[1].gravity:"),
        Case(
            name: "a Bézier curve overshooting the bound", file: "bezier.json",
            contents: keyframes + #"{"t":1,"gravity":[1,-1],"curve":{"cubicBezier":[0,1e300,1,1]}}]}"#,
            location: ":1:98: keyframes[1].curve:"),
    ]

    @Test(arguments: cases)
    func hugeTiltValuesAreRefusedByValidateAndRunWithTheirLocation(_ test: Case) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(test.file, test.contents)
        if let metadata = test.metadata { try directory.write("Metadata.csv", metadata) }
        let validate = try TiltboxBinary.run(["validate", path], in: directory)
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("crate-stack.json"), "--tilt", path, "--view", "none"],
            in: directory)
        for (command, result) in [("validate", validate), ("run", run)] {
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(command): one line: \(result.stderr)")
            #expect(result.stderr.hasPrefix(path + test.location), "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("limit is 1000000") || result.stderr.contains("limit of 1000000"),
                "\(command) names the bound: \(result.stderr)")
        }
        // One shared check: both commands say the same thing.
        #expect(validate.stderr == run.stderr)
    }

    @Test func aReadingAtTheBoundIsAccepted() throws {
        let directory = try TemporaryDirectory()
        // 1020.4081632653061 g × 980 = 999 999.99…, within 10⁶ units/s².
        let path = try directory.write("edge.csv", "t,x,y\n0,0,-1\n1,1020.4081632653061,-1020.4081632653061\n")
        let validate = try TiltboxBinary.run(["validate", path], in: directory)
        #expect(validate.status == 0, "\(validate.stderr)")
        let run = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--tilt", path, "--view", "none",
                "--duration", "1.5",
            ], in: directory)
        // The run completes; a 1 000 g tilt throws the stack over, so the scenario's expectations
        // fail (exit 1 after a complete run, not 2).
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("outcome:        complete"), "\(run.stdout)")
        #expect(run.stdout.contains("expect[0] (\"the stack stands for 10 s\")"), "\(run.stdout)")
    }

    @Test func aScenarioTiltFileIsCheckedWithTheScenariosOrientationAndG() throws {
        let directory = try TemporaryDirectory()
        // 2000 g is fine at g = 400 (800 000 units/s²) and too much at the default g = 980.
        try directory.write("tilt.csv", "t,x,y\n0,0,-1\n1,0,-2000\n")
        let small = try directory.write(
            "small.json",
            #"{"format":"tiltbox-scenario/1","world":{"size":[480,320]},"tilt":{"file":"tilt.csv","g":400}}"#)
        let large = try directory.write(
            "large.json", #"{"format":"tiltbox-scenario/1","world":{"size":[480,320]},"tilt":{"file":"tilt.csv"}}"#)
        #expect(try TiltboxBinary.run(["validate", small], in: directory).status == 0)
        let refused = try TiltboxBinary.run(["validate", large], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("tilt.csv:3:5:"), "\(refused.stderr)")
    }

    // MARK: - Integer conversions

    static func expectNoTrap(_ result: TiltboxBinary.Result, _ what: String) {
        #expect(result.status == 2, "\(what): \(result.stderr)")
        #expect(
            !result.stderr.contains("Fatal error") && !result.stderr.contains("cannot be converted"),
            "\(what): \(result.stderr)")
    }

    @Test func tinyEveryInTiltIsAnInputErrorNotATrap() throws {
        let directory = try TemporaryDirectory()
        let rock = PackageFiles.root.appendingPathComponent("Scenarios/tilt/rock.json").path
        let result = try TiltboxBinary.run(["tilt", rock, "--every", "1e-300"], in: directory)
        Self.expectNoTrap(result, "tilt --every 1e-300")
        #expect(result.stderr.contains("rows"), "\(result.stderr)")
    }

    @Test func aTiltSampleAtTenToThe303IsAnInputErrorNotATrap() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("late.csv", "t,x,y\n0,0,-1\n1e303,1,-1\n")
        let validate = try TiltboxBinary.run(["validate", path], in: directory)
        #expect(validate.status == 0, "a late sample is a valid recording: \(validate.stderr)")
        Self.expectNoTrap(try TiltboxBinary.run(["tilt", path], in: directory), "tilt with a sample at 1e303 s")
        let run = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--tilt", path, "--view", "none",
                "--duration", "0.1",
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func tinyEveryAndHugeTimesInRenderAreInputErrorsNotTraps() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("t.jsonl")
        let made = try TiltboxBinary.run(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--view", "none",
                "--duration", "0.1", "--trace", trace,
            ], in: directory)
        #expect(made.status == 0, "\(made.stderr)")
        Self.expectNoTrap(
            try TiltboxBinary.run(
                ["render", trace, "--svg", directory.path("o.svg"), "--every", "1e-300"],
                in: directory), "render --every 1e-300")
        // A record at t = 1e308 (the digest is not checked by render): a span no panel count fits.
        var lines = try JSONLines.lines(file: trace)
        lines[lines.count - 2] = lines[lines.count - 2].replacingOccurrences(of: #""t":0.1,"#, with: #""t":1e308,"#)
        #expect(lines[lines.count - 2].contains("1e308"))
        let edited = try directory.write("edited.jsonl", lines.joined(separator: "\n") + "\n")
        Self.expectNoTrap(
            try TiltboxBinary.run(
                ["render", edited, "--svg", directory.path("p.svg"), "--every", "0.01"],
                in: directory), "render of a record at t = 1e308")
    }
}
