import Foundation
import Testing

/// Every bad tilt input of issue 3, through the built binary: exit 2 and one line naming
/// the file and the line (or keyframe), for both `run --tilt` and `validate`.
@Suite struct TiltInputErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var contents: String?
        /// Copied from the input fixtures instead of written.
        var fixture: String?
        /// Text that must appear in the message besides the file name.
        var expect: [String]
        var testDescription: String { name }
    }

    static let keyframeHeader = #"{"format": "tiltbox-tilt/1", "keyframes": ["#

    static let cases: [Case] = [
        Case(name: "empty file", file: "empty.csv", contents: "", expect: ["empty"]),
        Case(name: "header matching no format", file: "odd.csv", contents: "time,ax,ay\n0,0,-1\n", expect: [":1"]),
        Case(
            name: "decreasing time", file: "back.csv", contents: "t,x,y\n0,0,-1\n2,0,-1\n1.5,0,-1\n",
            expect: [":4", "decreasing"]),
        Case(name: "non-numeric cell", file: "word.csv", contents: "t,x,y\n0,0,-1\n0.5,abc,-1\n", expect: [":3"]),
        Case(name: "missing column", file: "short.csv", contents: "t,x,y\n0,0,-1\n0.5,0\n", expect: [":3"]),
        Case(name: "non-finite value", file: "inf.csv", contents: "t,x,y\n0,0,-1\n0.5,inf,-1\n", expect: [":3"]),
        Case(
            name: "unknown curve name",
            file: "curve.json",
            contents: keyframeHeader
                + #"{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0], "curve": "easyIn"}]}"#,
            expect: ["keyframes[1].curve", "easyIn"]),
        Case(
            name: "Bézier x outside [0, 1]",
            file: "bezier.json",
            contents: keyframeHeader
                + #"{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0], "curve": {"cubicBezier": [1.5, 0, 0.5, 1]}}]}"#,
            expect: ["keyframes[1].curve"]),
        Case(
            name: "keyframes not sorted by time",
            file: "order.json",
            contents: keyframeHeader + #"{"t": 2, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0]}]}"#,
            expect: ["keyframes[1]"]),
        Case(
            name: "non-finite keyframe value",
            file: "huge.json", contents: keyframeHeader + #"{"t": 0, "gravity": [1e999, -1]}]}"#,
            expect: ["keyframes[0]"]),
        Case(
            name: "JSON syntax error", file: "broken.json",
            contents: "{\"format\": \"tiltbox-tilt/1\",\n  \"keyframes\": [\n", expect: [":3:"]),
        Case(
            name: "zip with nothing recognised", file: "nothing.zip", fixture: "nothing.zip", expect: ["no recognised"]),
        Case(
            name: "linear acceleration export", file: "linear.csv", fixture: "phyphox-linear.csv", expect: ["gravity"]),
    ]

    static let fixtures = PackageFiles.root.appendingPathComponent("Tests/InputTests/Fixtures")

    @Test(arguments: cases)
    func badTiltInputExitsTwoNamingFileAndPlace(_ c: Case) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(c.file)
        if let fixture = c.fixture {
            try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(fixture).path, toPath: path)
        } else {
            try directory.write(c.file, c.contents ?? "")
        }
        let scenario = PackageFiles.scenario("free-fall.json")
        for arguments in [
            ["run", scenario, "--tilt", path], ["validate", path], ["validate", scenario, "--tilt", path],
        ] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments[0]): exit \(result.status), stderr: \(result.stderr)")
            let lines = result.stderrLines
            #expect(lines.count == 1, "\(arguments[0]): one line expected: \(result.stderr)")
            let message = lines.first ?? ""
            #expect(message.hasPrefix(path), "\(arguments[0]): message should start with the file: \(message)")
            for text in c.expect {
                #expect(message.contains(text), "\(arguments[0]): message lacks '\(text)': \(message)")
            }
            if arguments[0] == "run" { #expect(result.stdout.isEmpty) }
        }
    }

    @Test func validateChecksAScenarioWithTheTiltGivenAsRunWouldUseIt() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("free-fall.json")
        let csv = try directory.write("tilt.csv", "t,x,y\n0,0,-1\n1,0.5,-0.8\n")
        let file = try TiltboxBinary.run(["validate", scenario, "--tilt", csv], in: directory)
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout.contains("; tilt \(csv): "), "\(file.stdout)")

        let phone = try TiltboxBinary.run(["validate", scenario, "--tilt", "phyphox://192.0.2.7"], in: directory)
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(phone.stdout.contains("; tilt phyphox://192.0.2.7:8080 (live: its form checked, nothing contacted)"))

        let bad = try TiltboxBinary.run(["validate", scenario, "--tilt", "phyphox://phone:80x"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderrLines == ["phyphox://phone:80x: the port '80x' is not a number"], "\(bad.stderr)")
    }
    @Test func phyphoxAndSensorLoggerExportsReplayWithoutConversion() throws {
        let directory = try TemporaryDirectory()
        for export in ["phyphox.zip", "sensorlogger.zip", "sensorlogger-android"] {
            let path = Self.fixtures.appendingPathComponent(export).path
            let run = try TiltboxBinary.run(
                ["run", PackageFiles.scenario("rocking.json"), "--tilt", path, "--duration", "1"], in: directory)
            #expect(run.status == 0, "\(export): \(run.stderr)")
            let validate = try TiltboxBinary.run(["validate", path], in: directory)
            #expect(
                validate.status == 0 && validate.stdout.hasPrefix("ok: "),
                "\(export): \(validate.stdout) \(validate.stderr)")
        }
    }

    @Test func tiltCommandPrintsTheWorldGravityAsCSV() throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(
            ["tilt", PackageFiles.scenario("tilt/rock.json"), "--every", "1.5"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        // Keyframes (in g, portrait, g = 980): (0,-1) at 0 s, (0.64,-0.77) at 1.5 s, (-0.64,-0.77) at 3 s, ...
        #expect(
            result.stdoutLines == [
                "t,gx,gy", "0,0,-980", "1.5,627.2,-754.6", "3,-627.2,-754.6",
                "4.5,627.2,-754.6", "6,-627.2,-754.6", "7.5,0,-980",
            ])
        let landscape = try TiltboxBinary.run(
            ["tilt", PackageFiles.scenario("tilt/rock.json"), "--every", "10", "--orientation", "landscapeRight"],
            in: directory)
        // landscapeRight maps device (X, Y) to world (Y, −X): (0, −1) → (−1, 0) → (−980, 0).
        #expect(landscape.stdoutLines == ["t,gx,gy", "0,-980,0"])
    }
}
