import Foundation
import Testing

/// `tiltbox curves`, the spring warning of `tiltbox tilt`, and the space settings that
/// `validate` and trace headers show, through the built binary.
@Suite struct CurvesAndSpaceCommandTests {
    @Test func curvesDrawsOneLabelledPlotPerNamedCurve() throws {
        let directory = try TemporaryDirectory()
        let svg = directory.path("c.svg")
        let run = try TiltboxBinary.run(
            ["curves", "--svg", svg, "bounceEaseOut", "easeOutBounce", #"{"spring": {"damping": 20}}"#], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg"))
        #expect(text.components(separatedBy: "<polyline").count - 1 == 3)
        for label in [
            "bounceEaseOut", "easeOutBounce", "{&quot;spring&quot;: {&quot;damping&quot;: 20}}", "seconds, 0 to",
        ] {
            #expect(text.contains(label), "no \(label) in the sheet")
        }
        let all = try TiltboxBinary.run(["curves", "--svg", directory.path("all.svg")], in: directory)
        #expect(all.status == 0)
        let allText = try String(contentsOfFile: directory.path("all.svg"), encoding: .utf8)
        #expect(allText.components(separatedBy: "<polyline").count - 1 == 67, "66 named curves and the default spring")
    }

    @Test func curvesRefusesAnUnknownNameOrABadSpringWithStatus2() throws {
        let directory = try TemporaryDirectory()
        let unknown = try TiltboxBinary.run(["curves", "--svg", directory.path("x.svg"), "easyIn"], in: directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown curve 'easyIn'"), "\(unknown.stderr)")
        let bad = try TiltboxBinary.run(
            ["curves", "--svg", directory.path("x.svg"), #"{"spring": {"mass": -2}}"#], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("spring.mass: must be > 0"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.svg")))
    }

    @Test func tiltWarnsWhenASpringSegmentIsCutOffBeforeItSettles() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "spring.json",
            """
            {"format": "tiltbox-tilt/1", "keyframes": [{"t": 0, "gravity": [0, -1]},
             {"t": 0.5, "gravity": [1, 0], "curve": {"spring": {"stiffness": 100, "damping": 4}}},
             {"t": 10, "gravity": [0, -1], "curve": {"spring": {"response": 0.5, "dampingRatio": 1}}}]}
            """)
        let run = try TiltboxBinary.run(["tilt", file], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("t,gx,gy\n"))
        let warnings = run.stderrLines.filter { $0.contains("warning") }
        #expect(warnings.count == 1, "only the short segment warns: \(run.stderr)")
        #expect(
            warnings.first?.contains("keyframes[1]") == true && warnings.first?.contains("lasts 0.5 s") == true,
            "\(run.stderr)")
        // ζ = 0.2, ω₀ = 10: |1 − s| stays under 0.001 from about 3.4 s.
        let settle = warnings.first.flatMap {
            $0.components(separatedBy: "only after ").last?.split(separator: " ").first
        }.flatMap { Double($0) }
        #expect(settle.map { $0 > 3 && $0 < 4 } == true, "\(run.stderr)")
    }

    @Test func validateAndTheTraceHeaderShowChipmunksDefaults() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write(
            "s.json",
            #"{"format": "tiltbox-scenario/1", "world": {"size": [200, 200], "sleepTimeThreshold": 0.5}, "duration": 0.1, "crates": [{"id": "a", "position": [100, 100]}]}"#
        )
        let validate = try TiltboxBinary.run(["validate", scenario], in: directory)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdout.contains(
                "space: iterations 10, damping 1, collisionSlop 0.10000000149011612, collisionBias 0.0017970074436457143, collisionPersistence 3, sleepTimeThreshold 0.5, idleSpeedThreshold 0"
            ), "\(validate.stdout)")
        let trace = directory.path("t.jsonl")
        let run = try TiltboxBinary.run(["run", scenario, "--trace", trace], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let header =
            try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            header.contains(
                #""space":{"iterations":10,"damping":1,"collisionSlop":0.10000000149011612,"collisionBias":0.0017970074436457143,"collisionPersistence":3,"sleepTimeThreshold":0.5,"idleSpeedThreshold":0}"#
            ), "\(header)")
        let unset = try directory.write("u.json", #"{"format": "tiltbox-scenario/1", "world": {"size": [200, 200]}}"#)
        let plain = try TiltboxBinary.run(["validate", unset], in: directory)
        #expect(plain.stdout.contains("sleepTimeThreshold infinity"), "\(plain.stdout)")
        // Written traces stay readable: diff reads the header with its space key.
        let same = try TiltboxBinary.run(["diff", trace, trace], in: directory)
        #expect(same.status == 0, "\(same.stdout) \(same.stderr)")
    }

    @Test func badSpaceSettingsAreLocatedErrors() throws {
        let directory = try TemporaryDirectory()
        for (key, value, reason) in [
            ("collisionBias", "1.5", "must be ≥ 0 and ≤ 1"), ("collisionPersistence", "2.5", "expected an integer"),
            ("sleepTimeThreshold", "-1", "must be ≥ 0"), ("idleSpeedThreshold", "\"fast\"", "expected a number"),
        ] {
            let file = try directory.write(
                "\(key).json",
                "{\"format\": \"tiltbox-scenario/1\",\n \"world\": {\"size\": [200, 200], \"\(key)\": \(value)}}")
            let run = try TiltboxBinary.run(["validate", file], in: directory)
            #expect(run.status == 2)
            #expect(
                run.stderr.contains("\(key).json:2:") && run.stderr.contains("world.\(key): \(reason)"), "\(run.stderr)"
            )
        }
    }
}
