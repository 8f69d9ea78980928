import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

@Suite struct TiltFileTests {
    func at(_ tilt: LoadedTilt, _ t: Double) -> Vec2Like {
        let v = tilt.track.gravity(at: t)
        return (v.x, v.y)
    }

    // MARK: - Tiltbox CSV and keyframes

    @Test func tiltboxCSVSkipsCommentsAndBlankLines() throws {
        let tilt = try TiltFile.load(path: Fixture.path("tiltbox.csv"), g: 980)
        #expect(tilt.format == .tiltboxCSV)
        #expect(tilt.count == 5)
        #expect(tilt.duration == 3)
        #expect(tilt.convention == nil)
        #expect(close(at(tilt, -1), (0, -980)))
        #expect(close(at(tilt, 0.5), (0, -980)))
        #expect(close(at(tilt, 1.5), (490, -490)))
        #expect(close(at(tilt, 2), (0, -980)))
        #expect(close(at(tilt, 99), (0, -980)))
        #expect(tilt.summary == "Tiltbox CSV, 5 samples, 3.0 s")
    }

    @Test func tiltboxCSVLinearInterpolation() throws {
        let tilt = try TiltFile.load(path: Fixture.path("tiltbox.csv"), g: 980, interpolation: .linear)
        #expect(close(at(tilt, 0.5), (245, -735)))
        #expect(close(at(tilt, 1.5), (122.5, -612.5)))
    }

    @Test func keyframesEaseBetweenValuesAndHoldAtTheEnds() throws {
        let tilt = try TiltFile.load(path: Fixture.path("keyframes.json"), g: 980)
        #expect(tilt.format == .keyframes)
        #expect(tilt.count == 5)
        #expect(tilt.duration == 5)
        #expect(close(at(tilt, -1), (0, -980)))
        #expect(close(at(tilt, 0), (0, -980)))
        // easeInEaseOut is symmetric: halfway in time is halfway in value.
        #expect(close(at(tilt, 1), (245, -735)))
        #expect(close(at(tilt, 2.5), (490, -490)))
        #expect(close(at(tilt, 3.999), (490, -490))) // hold
        #expect(close(at(tilt, 4), (-490, -980)))
        #expect(close(at(tilt, 5), (0, -980)))
        #expect(close(at(tilt, 6), (0, -980)))
        let easing = at(tilt, 4.5)
        #expect(easing.0 > -490 && easing.0 < 0)
    }

    @Test(arguments: [
        (Orientation.portrait, (0.0, -980.0)), (.landscapeRight, (-980, 0)),
        (.landscapeLeft, (980, 0)), (.portraitUpsideDown, (0, 980)),
    ])
    func keyframesInGUseOrientationAndG(_ orientation: Orientation, _ expected: Vec2Like) throws {
        let tilt = try TiltFile.load(path: Fixture.path("keyframes.json"), orientation: orientation, g: 980)
        #expect(close(at(tilt, 0), expected))
    }

    @Test func keyframesInWorldUnitsIgnoreOrientationAndG() throws {
        let tilt = try TiltFile.load(path: Fixture.path("keyframes-world.json"), orientation: .landscapeLeft, g: 1)
        #expect(close(at(tilt, 0), (0, -980)))
        #expect(close(at(tilt, 1), (490, -490)))
        // bounceEaseOut is the book's (AHEasing's): at 0.5, 363/40·¼ − 99/10·½ + 17/5 = 0.71875
        #expect(close(at(tilt, 0.5), (490 * 0.71875, -980 + 490 * 0.71875)))
    }

    // MARK: - phyphox

    static let phyphoxFiles = [
        "phyphox-comma.csv", "phyphox-semicolon.csv", "phyphox-tab.csv",
        "phyphox.zip", "phyphox-export",
    ]

    @Test(arguments: phyphoxFiles)
    func phyphoxUsesAndroidSignsInEveryDelimiter(_ name: String) throws {
        let tilt = try TiltFile.load(path: Fixture.path(name), g: 980)
        #expect(tilt.format == .phyphox)
        #expect(tilt.convention == .android)
        #expect(tilt.count == 3) // the NaN / empty row is skipped
        #expect(close(at(tilt, 0), (0, 0))) // flat: z ≈ +9.81, no x or y
        #expect(tilt.track.gravity(at: 0).bitwiseEquals(.zero)) // +0, not −0
        #expect(close(at(tilt, 1), (0, -980))) // upright: raw y = +9.81 m/s²
        #expect(close(at(tilt, 2.5), (0, -980))) // held across the skipped row
        #expect(close(at(tilt, 3), (490, -490))) // raw (−4.9, +4.9) → (0.5, −0.5) g
    }

    @Test(arguments: [
        (Orientation.portrait, (490.0, -490.0)), (.landscapeRight, (-490, -490)),
        (.landscapeLeft, (490, 490)), (.portraitUpsideDown, (-490, 490)),
    ])
    func phyphoxOrientations(_ orientation: Orientation, _ expected: Vec2Like) throws {
        let tilt = try TiltFile.load(path: Fixture.path("phyphox-semicolon.csv"), orientation: orientation, g: 980)
        #expect(close(at(tilt, 3), expected))
        #expect(close(at(tilt, 0), (0, 0)))
    }

    @Test func phyphoxZipNamesTheEntryRead() throws {
        let tilt = try TiltFile.load(path: Fixture.path("phyphox.zip"), g: 980)
        #expect(tilt.source.hasSuffix("phyphox.zip(Raw Data.csv)"))
    }

    @Test func phyphoxLinearAccelerationIsRefused() {
        #expect { try TiltFile.load(path: Fixture.path("phyphox-linear.csv"), g: 980) } throws: { error in
            let text = "\(error)"
            return text.contains("phyphox-linear.csv:1:") && text.contains("no gravity")
        }
    }

    // MARK: - Sensor Logger

    @Test(arguments: ["sensorlogger-android", "sensorlogger-ios", "sensorlogger.zip"])
    func sensorLoggerFollowsThePlatformInMetadata(_ name: String) throws {
        let tilt = try TiltFile.load(path: Fixture.path(name), g: 980)
        #expect(tilt.format == .sensorLogger)
        #expect(tilt.convention == (name.contains("android") ? .android : .ios))
        #expect(tilt.source.hasSuffix("Gravity.csv") || tilt.source.hasSuffix("Gravity.csv)"))
        #expect(tilt.count == 3)
        #expect(close(at(tilt, 0), (0, -980))) // upright in portrait on either platform
        #expect(close(at(tilt, 0.1), (0, 0))) // flat
        #expect(close(at(tilt, 0.3), (490, -490)))
        #expect(close(at(tilt, 0.25), (0, 0))) // the empty / NaN row is skipped
    }

    @Test func sensorLoggerConventionOverrideWins() throws {
        let tilt = try TiltFile.load(path: Fixture.path("sensorlogger-android"), g: 980, convention: .ios)
        #expect(tilt.convention == .ios)
        #expect(close(at(tilt, 0), (0, 980)))
    }

    @Test func sensorLoggerWithoutMetadataNeedsAConvention() throws {
        #expect { try TiltFile.load(path: Fixture.path("sensorlogger-nometa"), g: 980) } throws: { error in
            "\(error)".contains("TotalAcceleration.csv") && "\(error)".contains("--convention ios|android")
        }
        let tilt = try TiltFile.load(path: Fixture.path("sensorlogger-nometa"), g: 980, convention: .ios)
        #expect(close(at(tilt, 0), (0, -980)))
    }

    @Test(arguments: [
        "sensorlogger-accelerometer", "sensorlogger-accelerometer/Accelerometer.csv",
        "accelerometer-only.zip",
    ])
    func sensorLoggerAccelerometerAloneIsRefused(_ name: String) {
        #expect { try TiltFile.load(path: Fixture.path(name), g: 980) } throws: { error in
            "\(error)".contains("no gravity") && "\(error)".contains(name.split(separator: "/")[0])
        }
    }

    @Test func sensorLoggerUnknownPlatformNamesMetadataLine() throws {
        let gravity = try Fixture.scratch("Gravity.csv", "time,seconds_elapsed,z,y,x\n1,0,0,9.8,0\n")
        let folder = URL(fileURLWithPath: gravity).deletingLastPathComponent()
        try Data("platform\nwindows\n".utf8).write(to: folder.appendingPathComponent("Metadata.csv"))
        #expect { try TiltFile.load(path: gravity, g: 980) } throws: { error in
            "\(error)".contains("Metadata.csv:2: unknown platform 'windows'")
        }
    }

    // MARK: - Errors

    /// Loads `text` saved as `name` and returns the one-line error.
    func failure(_ name: String, _ text: String) throws -> String {
        let path = try Fixture.scratch(name, text)
        do {
            _ = try TiltFile.load(path: path, g: 980)
        } catch {
            #expect(error.file == path)
            return error.description
        }
        Issue.record("\(name) loaded without error")
        return ""
    }

    @Test func errorsNameFileAndLine() throws {
        let cases: [(name: String, text: String, expected: String)] = [
            ("empty.csv", "", "empty.csv:1: empty file"),
            ("blank.csv", "# only a comment\n\n", "blank.csv:1: empty file"),
            (
                "odd.csv", "# what\ntime,a,b\n0,1,2\n",
                "odd.csv:2: the first line is not the header of a known tilt format"
            ),
            (
                "rock.csv", "# rocking\nt,x,y\n0,0,-1\n1,0,-1\n\n2.0,0,-1\n1.5,0,-1\n",
                "rock.csv:7:1: decreasing time 1.5 after 2.0"
            ),
            ("crlf.csv", "t,x,y\r\n0,0,-1\r\n\r\n1,x,-1\r\n", "crlf.csv:4:3: non-numeric cell 'x' in column 'x'"),
            ("word.csv", "t,x,y\n0,0,-1\n1,zero,-1\n", "word.csv:3:3: non-numeric cell 'zero' in column 'x'"),
            ("short.csv", "t,x,y\n0,0,-1\n1,0\n", "short.csv:3: missing column 'y'"),
            ("inf.csv", "t,x,y\n0,0,-1\n1,inf,-1\n", "inf.csv:3:3: non-finite value 'inf' in column 'x'"),
            ("nan.csv", "t,x,y\n0,NaN,-1\n1,,-1\n", "nan.csv:1: no data rows"),
            ("Gravity.csv", "time,seconds_elapsed,z,y\n1,0,0,9.8\n", "Gravity.csv:1: missing column 'x'"),
            (
                "raw.csv", "\"Time (s)\",\"Acceleration x (m/s^2)\"\n0,1\n",
                "raw.csv:1: missing column 'Acceleration y (m/s^2)'"
            ),
            (
                "semi.csv", "\"Time (s)\";\"Acceleration x (m/s^2)\";\"Acceleration y (m/s^2)\"\n0,5;1,0;x\n",
                "semi.csv:2:9: non-numeric cell 'x' in column 'Acceleration y (m/s^2)'"
            ),
        ]
        for (name, text, expected) in cases {
            let message = try failure(name, text)
            #expect(message.hasSuffix(expected) || message.contains(expected), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test func keyframeErrorsNameTheKeyframe() throws {
        func keyframes(_ body: String) -> String { #"{"format": "tiltbox-tilt/1", "keyframes": [\#(body)]}"# }
        let ok = #"{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [0, -1]}"#
        let cases: [(String, String)] = [
            (
                keyframes(ok + #", {"t": 2, "gravity": [0, -1], "curve": "easyIn"}"#),
                "keyframes[2].curve: unknown curve 'easyIn'"
            ),
            (
                keyframes(
                    #"{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0], "curve": {"cubicBezier": [1.2, 0, 0.5, 1]}}"#
                ),
                "keyframes[1].curve: cubicBezier x1 = 1.2 is outside [0, 1]"
            ),
            (
                keyframes(ok + #", {"t": 0.5, "gravity": [0, -1]}"#),
                "keyframes[2].t: keyframes not sorted by time: 0.5 after 1.0"
            ),
            (keyframes(ok + #", {"t": 2, "gravity": [0]}"#), "keyframes[2].gravity: expected [x, y]"),
            (
                keyframes(ok + #", {"t": 2, "gravity": [0, "down"]}"#),
                "keyframes[2].gravity[1]: expected a number, found a string"
            ),
            (keyframes(#"{"gravity": [0, -1]}"#), "keyframes[0].t: missing"),
            (keyframes(""), "keyframes: no keyframes"),
            (#"{"format": "tiltbox-tilt/2", "keyframes": []}"#, "format: unknown format, expected 'tiltbox-tilt/1'"),
            (#"{"format": "tiltbox-tilt/1", "units": "m/s2", "keyframes": []}"#, "units: unknown units 'm/s2'"),
        ]
        for (text, expected) in cases {
            let message = try failure("wave.json", text)
            // Every error now names the line and column too (one-line documents: line 1).
            #expect(message.contains("wave.json:1:") && message.contains(": " + expected), "\(message)")
        }
    }

    @Test func aMisspeltKeyIsRefusedWithDidYouMeanAndAnUnrelatedOneIsIgnored() throws {
        let misspelt = try failure(
            "wave.json", #"{"format": "tiltbox-tilt/1", "Units": "g", "keyframes": [{"t": 0, "gravity": [0, -1]}]}"#)
        #expect(
            misspelt.hasSuffix(#"wave.json:1:30: Units: unknown key "Units" (did you mean "units"?)"#), "\(misspelt)")
        let spring = try failure(
            "wave.json",
            #"{"format": "tiltbox-tilt/1", "keyframes": [{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0], "curve": {"spring": {"stifness": 50}}}]}"#
        )
        #expect(
            spring.contains("wave.json:1:")
                && spring.contains(
                    #"keyframes[1].curve.spring.stifness: unknown spring parameter "stifness" (did you mean "stiffness"?)"#
                ),
            "\(spring)")
        // A key far from every known one (a later version's) is still ignored.
        let data = Data(
            #"{"format": "tiltbox-tilt/1", "author": "me", "keyframes": [{"t": 0, "gravity": [0, -1], "note": "x"}]}"#
                .utf8)
        let track = try KeyframeFile.load(data, file: "wave.json", orientation: .portrait, g: 980)
        #expect(track.keyframes.count == 1)
    }

    @Test func aKeyBesideSpringInACurveIsRefusedAtThatKey() throws {
        for extra in [#""typo": 1"#, #""cubicBezier": [0.25, 0.1, 0.25, 1]"#] {
            let key = extra.split(separator: "\"")[0]
            let message = try failure(
                "wave.json",
                #"{"format": "tiltbox-tilt/1", "keyframes": [{"t": 0, "gravity": [0, -1]}, {"t": 1, "gravity": [1, 0], "curve": {"spring": {"damping": 20}, "#
                    + extra + "}}]}")
            #expect(
                message.contains(
                    "wave.json:1:"
                )
                    && message.contains(
                        #"keyframes[1].curve.\#(key): unexpected key beside "spring": a spring curve is {"spring": {...}} alone"#
                    ),
                "\(message)")
        }
    }

    @Test func jsonSyntaxErrorHasLineAndColumn() throws {
        let message = try failure("broken.json", "{\n  \"format\": \"tiltbox-tilt/1\",\n  \"keyframes\": [1,, 2]\n}\n")
        #expect(message.contains("broken.json:3:"), "\(message)")
        #expect(message.contains("not valid JSON"))
    }

    @Test func zipWithNothingRecognisedIsAnError() {
        #expect { try TiltFile.load(path: Fixture.path("nothing.zip"), g: 980) } throws: { error in
            "\(error)".contains("nothing.zip: no recognised tilt recording")
        }
    }

    @Test func notAZipIsAnError() throws {
        let path = try Fixture.scratch("fake.zip", "not a zip at all")
        #expect { try TiltFile.load(path: path, g: 980) } throws: { error in
            "\(error)".contains("fake.zip: not a readable zip archive")
        }
    }

    @Test func missingFileIsAnError() {
        #expect { try TiltFile.load(path: "/nonexistent/tilt.csv", g: 980) } throws: { error in
            "\(error)" == "/nonexistent/tilt.csv: no such file"
        }
    }

    @Test func fileOverTheCapIsRefusedBeforeReading() throws {
        let path = try Fixture.scratch("huge.csv", "t,x,y\n")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(TiltFile.maximumFileSize) + 1) // sparse: no disk used
        try handle.close()
        #expect { try TiltFile.load(path: path, g: 980) } throws: { error in
            "\(error)".contains("huge.csv: file too large")
        }
    }

    @Test func nonFiniteGIsRefused() {
        #expect(throws: InputError.self) { try TiltFile.load(path: Fixture.path("tiltbox.csv"), g: .nan) }
    }

    @Test func errorDescriptionIsOneLine() {
        #expect(
            InputError(file: "tilt/rock.csv", line: 7, reason: "decreasing time 1.5 after 2.0").description
                == "tilt/rock.csv:7: decreasing time 1.5 after 2.0")
        #expect(
            InputError(file: "w.json", line: 3, column: 9, reason: "not valid JSON").description
                == "w.json:3:9: not valid JSON")
        #expect(
            InputError(file: "w.json", path: "keyframes[2].curve", reason: "unknown curve 'easyIn'").description
                == "w.json: keyframes[2].curve: unknown curve 'easyIn'")
    }
}
