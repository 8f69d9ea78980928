import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The docs/formats.md §1 example, verbatim.
let formatsExample = """
    {
      "format": "tiltbox-scenario/1",
      "name": "crate-stack",
      "description": "Ten crates stacked in a 480x320 box",
      "world": { "size": [480, 320], "gravity": [0, -980], "iterations": 10, "damping": 1.0,
                 "collisionSlop": 0.1, "spatialIndex": "bbtree" },
      "timestep": { "hz": 120, "maxStepsPerFrame": 8 },
      "duration": 10.0,
      "walls": { "box": true, "radius": 1, "friction": 0.8, "elasticity": 0.3 },
      "segments": [ { "from": [0, 100], "to": [200, 60], "radius": 2, "friction": 0.8, "elasticity": 0.3 } ],
      "crates": [
        { "id": "a", "position": [100, 200], "size": [32, 32], "angle": 0.0, "mass": 1.0,
          "friction": 0.7, "elasticity": 0.3, "velocity": [0, 0], "angularVelocity": 0.0 }
      ],
      "grids": [
        { "idPrefix": "g", "origin": [40, 20], "columns": 8, "rows": 4, "spacing": [36, 36],
          "crate": { "size": [32, 32], "mass": 1.0 } }
      ],
      "tilt": { "file": "tilt/rock.csv", "orientation": "portrait", "g": 980 }
    }
    """

@Suite struct ScenarioLoaderTests {
    @Test func minimalFileGetsEveryDefault() throws {
        let text = #"{"format":"tiltbox-scenario/1","world":{"size":[480,320]}}"#
        let scenario = try loadScenario(text, file: "Scenarios/minimal.json")
        let expected = Scenario(
            name: "minimal", description: "",
            // No space setting: every one stays nil, so Chipmunk keeps its own default.
            world: WorldSettings(
                size: Vec2(480, 320), gravity: Vec2(0, -980), iterations: nil, damping: nil,
                collisionSlop: nil, spatialIndex: .bbtree),
            timestep: TimestepSettings(hz: 120, maxStepsPerFrame: 8), duration: 10,
            walls: WallSettings(box: true, radius: 1, friction: 0.8, elasticity: 0.3),
            segments: [], crates: [], tilt: nil)
        #expect(scenario == expected)
        #expect(scenario.totalSteps == 1200)
        #expect(scenario.allSegments.count == 4)
    }

    @Test func formatsExampleParsesToTheExpectedModel() throws {
        let scenario = try loadScenario(formatsExample, file: "Scenarios/crate-stack.json", base: "Scenarios")
        #expect(scenario.name == "crate-stack")
        #expect(scenario.description == "Ten crates stacked in a 480x320 box")
        #expect(scenario.world == WorldSettings(size: Vec2(480, 320), iterations: 10, damping: 1, collisionSlop: 0.1))
        #expect(scenario.timestep == TimestepSettings())
        #expect(scenario.duration == 10)
        #expect(scenario.walls == WallSettings())
        #expect(scenario.segments == [SegmentSpec(from: Vec2(0, 100), to: Vec2(200, 60), radius: 2)])
        #expect(scenario.tilt == TiltSettings(file: "Scenarios/tilt/rock.csv", orientation: .portrait, g: 980))

        #expect(scenario.crates.count == 1 + 8 * 4)
        #expect(scenario.crates[0] == CrateSpec(id: "a", position: Vec2(100, 200)))
        // Grid crates follow the listed ones, row by row from the bottom, columns left to right.
        let gridIDs = scenario.crates.dropFirst().map(\.id)
        var expectedIDs: [String] = []
        for row in 0..<4 { for column in 0..<8 { expectedIDs.append("g\(row)_\(column)") } }
        #expect(gridIDs == expectedIDs)
        #expect(Array(gridIDs.prefix(3)) == ["g0_0", "g0_1", "g0_2"])
        #expect(gridIDs[8] == "g1_0")
        #expect(scenario.crates[1] == CrateSpec(id: "g0_0", position: Vec2(40, 20)))
        #expect(scenario.crates[2].position == Vec2(76, 20))
        #expect(scenario.crates[9].position == Vec2(40, 56))
        #expect(scenario.crates[32] == CrateSpec(id: "g3_7", position: Vec2(292, 128)))
    }

    @Test func gridTemplateAndDefaultPrefixApply() throws {
        let text = scenarioText(
            #"""
            "grids": [
                { "origin": [10, 10], "columns": 2, "rows": 1, "spacing": [20, 0],
                  "crate": { "size": [8, 4], "mass": 2, "angle": 0.5, "friction": 0.1, "elasticity": 0.9,
                             "velocity": [1, -1], "angularVelocity": 3 } },
                { "origin": [100, 100], "columns": 1, "rows": 2, "spacing": [0, 50] }
              ]
            """#)
        let scenario = try loadScenario(text)
        #expect(scenario.crates.map(\.id) == ["g0_0_0", "g0_0_1", "g1_0_0", "g1_1_0"])
        #expect(
            scenario.crates[1]
                == CrateSpec(
                    id: "g0_0_1", position: Vec2(30, 10), size: Vec2(8, 4), angle: 0.5,
                    mass: 2, friction: 0.1, elasticity: 0.9, velocity: Vec2(1, -1),
                    angularVelocity: 3))
        #expect(scenario.crates[3] == CrateSpec(id: "g1_1_0", position: Vec2(100, 150)))
    }

    @Test func spatialHashReadsWithDefaults() throws {
        let full = try loadScenario(
            scenarioText(world: #""size": [480, 320], "spatialIndex": {"hash": {"cellSize": 40, "count": 1000}}"#))
        #expect(full.world.spatialIndex == .hash(cellSize: 40, count: 1000))
        let empty = try loadScenario(scenarioText(world: #""size": [480, 320], "spatialIndex": {"hash": {}}"#))
        #expect(empty.world.spatialIndex == .hash(cellSize: 20, count: 4000))
    }

    @Test(arguments: [
        ("tilt/rock.csv", "Scenarios", "Scenarios/tilt/rock.csv"),
        ("tilt/rock.csv", "Scenarios/", "Scenarios/tilt/rock.csv"),
        ("/abs/rock.csv", "Scenarios", "/abs/rock.csv"),
        ("rock.csv", "/", "/rock.csv"),
    ])
    func relativeTiltPathIsResolvedAgainstTheScenarioFolder(file: String, base: String, expected: String) throws {
        let text = scenarioText(#""tilt": { "file": "\#(file)", "orientation": "landscapeRight" }"#)
        let scenario = try loadScenario(text, base: base)
        #expect(scenario.tilt == TiltSettings(file: expected, orientation: .landscapeRight, g: nil))
    }

    @Test func tiltPathIsKeptWithoutABaseDirectory() throws {
        let scenario = try loadScenario(scenarioText(#""tilt": { "file": "tilt/rock.csv" }"#), base: nil)
        #expect(scenario.tilt == TiltSettings(file: "tilt/rock.csv"))
    }

    @Test(arguments: [
        ("Scenarios/crate-stack.json", "crate-stack"),
        ("crate-stack.json", "crate-stack"),
        ("/a/b/c.d.json", "c.d"),
        ("noext", "noext"),
        (".json", ".json"),
        ("dir/", "scenario"),
    ])
    func nameDefaultsToTheFileBaseName(file: String, expected: String) {
        #expect(ScenarioLoader.defaultName(for: file) == expected)
    }

    @Test func integralFloatsAreAcceptedAsIntegers() throws {
        let scenario = try loadScenario(scenarioText(world: #""size": [480, 320], "iterations": 12.0"#))
        #expect(scenario.world.iterations == 12)
    }

    @Test func cratesOnTheWorldEdgeAreInside() throws {
        let text = scenarioText(#""crates": [{"id": "lo", "position": [0, 0]}, {"id": "hi", "position": [480, 320]}]"#)
        #expect(try loadScenario(text).crates.count == 2)
    }

    @Test func aGridAtTheCrateCapLoads() throws {
        let text = scenarioText(
            world: #""size": [1000, 1000]"#,
            #""grids": [{"origin": [0, 0], "columns": 1000, "rows": 100, "spacing": [1, 1], "crate": {"size": [0.5, 0.5]}}]"#
        )
        let scenario = try loadScenario(text)
        #expect(scenario.crates.count == ScenarioLoader.limits.maxCrates)
        #expect(scenario.crates.last?.id == "g0_99_999")
    }
}

// MARK: - Files

@Suite struct ScenarioFileTests {
    /// A fresh folder under the temporary directory, removed by the caller.
    func makeFolder() throws -> String {
        let path = NSTemporaryDirectory() + "tiltbox-scenario-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        return path
    }

    @Test func loadReadsAFileAndResolvesItsTiltPath() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/sub/rocking.json"
        try scenarioText(#""tilt": {"file": "tilt/rock.csv", "g": 500}"#).write(
            toFile: path, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.load(path: path)
        #expect(scenario.name == "rocking")
        #expect(scenario.tilt == TiltSettings(file: folder + "/sub/tilt/rock.csv", g: 500))
    }

    @Test func missingFileIsAnInputError() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/nope.json"
        #expect(throws: InputError(file: path, reason: "no such file")) { try ScenarioLoader.load(path: path) }
    }

    @Test func directoryIsAnInputError() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: InputError.self) { try ScenarioLoader.load(path: folder + "/sub") }
        #expect(error?.description.contains("is a directory") == true)
    }

    @Test func oversizedFileIsRefusedBeforeReading() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/huge.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(ScenarioLoader.limits.maxFileBytes) + 1) // sparse, no real bytes
        try handle.close()
        let error = #expect(throws: InputError.self) { try ScenarioLoader.load(path: path) }
        #expect(error?.description.contains("more than the limit of 16777216") == true)
    }

    @Test func invalidUTF8IsAnInputErrorWithALocation() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/bad.json"
        var bytes = Array("{\"format\": \"tiltbox-scenario/1\",\n \"name\": \"".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\", \"world\": {\"size\": [1, 1]}}".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: InputError.self) { try ScenarioLoader.load(path: path) }
        #expect(error?.location?.line == 2)
        #expect(error?.description.hasPrefix(path + ":2:") == true)
        #expect(error?.description.contains("UTF-8") == true)
    }

    @Test func emptyFileIsASyntaxError() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/empty.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: InputError.self) { try ScenarioLoader.load(path: path) }
        #expect(error?.description == "\(path):1:1: expected a value, found end of file")
    }

    @Test func syntaxErrorInAFileNamesLineAndColumn() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/broken.json"
        try "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"world\": {\"size\": [480 320]}\n}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: InputError.self) { try ScenarioLoader.load(path: path) }
        #expect(error?.location == SourceLocation(line: 3, column: 26))
        #expect(error?.path == nil)
        #expect(error?.description.hasPrefix("\(path):3:26: expected ',' or ']'") == true)
    }
}
