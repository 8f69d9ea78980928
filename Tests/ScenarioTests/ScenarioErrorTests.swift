import Testing

@_spi(Tools) @testable import Tiltbox

/// One invalid scenario and what its error must say: the line, the field path and a
/// fragment of the reason. `scenarioText` puts `world` on line 3 and extras from line 4.
struct BadInput: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var path: String?
    var line: Int
    var reason: String

    var testDescription: String { name }

    init(_ name: String, _ text: String, path: String?, line: Int, _ reason: String) {
        self.name = name
        self.text = text
        self.path = path
        self.line = line
        self.reason = reason
    }
}

private func world(_ members: String) -> String { scenarioText(world: #""size": [480, 320], "# + members) }
private func extra(_ members: String) -> String { scenarioText(members) }
private func crate(_ members: String) -> String {
    scenarioText(#""crates": [{"id": "a", "position": [100, 100], "# + members + "}]")
}
private func grid(_ members: String) -> String {
    scenarioText(#""grids": [{"origin": [10, 10], "columns": 2, "rows": 2, "spacing": [40, 40], "# + members + "}]")
}

let badInputs: [BadInput] = [
    // Not JSON, wrong shape, wrong format.
    BadInput(
        "syntax error", "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"world\": {\"size\": [480, 320]\n}\n",
        path: nil, line: 5, "expected ',' or '}'"),
    BadInput(
        "top level not an object", "[1, 2]", path: nil, line: 1,
        "expected a scenario object at the top level, got an array"),
    BadInput(
        "missing format", "{\n \"world\": {\"size\": [1, 1]}}", path: "format", line: 1,
        "missing required key \"format\""),
    BadInput(
        "unknown format", "{\n \"format\": \"tiltbox-tilt/1\"}", path: "format", line: 2,
        "unknown format (expected \"tiltbox-scenario/1\")"),
    BadInput("format not a string", "{\n \"format\": 1}", path: "format", line: 2, "expected a string, got a number"),
    BadInput(
        "missing world", "{\"format\": \"tiltbox-scenario/1\"}", path: "world", line: 1,
        "missing required key \"world\""),
    BadInput(
        "missing world.size", scenarioText(world: #""gravity": [0, -1]"#), path: "world.size", line: 3,
        "missing required key \"size\""),
    // Wrong types.
    BadInput(
        "gravity is a string", world(#""gravity": "down""#), path: "world.gravity", line: 3,
        "expected an array of two numbers [x, y], got a string"),
    BadInput(
        "size has three numbers", scenarioText(world: #""size": [1, 2, 3]"#), path: "world.size", line: 3,
        "got 3 elements"),
    BadInput(
        "duration is a string", extra(#""duration": "10""#), path: "duration", line: 4,
        "expected a number, got a string"),
    BadInput(
        "walls.box is a number", extra(#""walls": {"box": 1}"#), path: "walls.box", line: 4, "expected true or false"),
    BadInput(
        "crates is an object", extra(#""crates": {}"#), path: "crates", line: 4, "expected an array, got an object"),
    BadInput(
        "crate is a number", extra(#""crates": [7]"#), path: "crates[0]", line: 4, "expected an object, got a number"),
    BadInput(
        "id is a number", extra(#""crates": [{"id": 5, "position": [1, 1]}]"#), path: "crates[0].id", line: 4,
        "expected a string, got a number"),
    BadInput(
        "id is empty", extra(#""crates": [{"id": "", "position": [1, 1]}]"#), path: "crates[0].id", line: 4,
        "must not be empty"),
    BadInput(
        "missing crate id", extra(#""crates": [{"position": [1, 1]}]"#), path: "crates[0].id", line: 4,
        "missing required key \"id\""),
    BadInput(
        "missing crate position", extra(#""crates": [{"id": "a"}]"#), path: "crates[0].position", line: 4,
        "missing required key \"position\""),
    // Unknown keys.
    BadInput(
        "typo in world", world(#""gravty": [0, -1]"#), path: "world.gravty", line: 3,
        "unknown key \"gravty\" (did you mean \"gravity\"?); valid keys: size, gravity"),
    BadInput("typo at the top", extra(#""crate": []"#), path: "crate", line: 4, "did you mean \"crates\"?"),
    BadInput(
        "id in a grid template", grid(#""crate": {"id": "x"}"#), path: "grids[0].crate.id", line: 4,
        "unknown key \"id\""),
    BadInput(
        "unknown hash key", world(#""spatialIndex": {"hash": {"cells": 3}}"#), path: "world.spatialIndex.hash.cells",
        line: 3,
        "unknown key \"cells\""),
    // Non-finite numbers.
    BadInput("1e999 duration", extra(#""duration": 1e999"#), path: "duration", line: 4, "overflows to inf"),
    BadInput(
        "-1e999 gravity", world(#""gravity": [0, -1e999]"#), path: "world.gravity[1]", line: 3, "overflows to -inf"),
    // Sizes, masses and rates ≤ 0.
    BadInput(
        "crate height below zero",
        scenarioText(
            """
            "crates": [
                { "id": "a", "position": [100, 100] },
                {
                  "id": "b",
                  "position": [200, 100],
                  "size": [32, -1]
                }
              ]
            """), path: "crates[1].size[1]", line: 9, "must be ≥ 0.001 and ≤ 100000 (got -1)"),
    BadInput(
        "world width zero", scenarioText(world: #""size": [0, 320]"#), path: "world.size[0]", line: 3, "must be > 0"),
    BadInput("mass zero", crate(#""mass": 0"#), path: "crates[0].mass", line: 4, "(got 0)"),
    BadInput("hz zero", extra(#""timestep": {"hz": 0}"#), path: "timestep.hz", line: 4, "must be > 0"),
    BadInput("duration zero", extra(#""duration": 0"#), path: "duration", line: 4, "must be > 0"),
    // Negative friction, elasticity, radius, slop; damping outside [0, 1].
    BadInput(
        "negative wall friction", extra(#""walls": {"friction": -0.1}"#), path: "walls.friction", line: 4, "must be ≥ 0"
    ),
    BadInput(
        "negative crate elasticity", crate(#""elasticity": -1"#), path: "crates[0].elasticity", line: 4, "must be ≥ 0"),
    BadInput(
        "negative segment radius", extra(#""segments": [{"from": [0, 0], "to": [10, 0], "radius": -1}]"#),
        path: "segments[0].radius", line: 4, "must be ≥ 0"),
    BadInput(
        "negative collision slop", world(#""collisionSlop": -0.1"#), path: "world.collisionSlop", line: 3, "must be ≥ 0"
    ),
    BadInput(
        "damping above one", world(#""damping": 1.5"#), path: "world.damping", line: 3, "must be ≥ 0 and ≤ 1 (got 1.5)"),
    // Integers.
    BadInput(
        "fractional iterations", world(#""iterations": 2.5"#), path: "world.iterations", line: 3,
        "expected an integer, got 2.5"),
    BadInput(
        "zero maxStepsPerFrame", extra(#""timestep": {"maxStepsPerFrame": 0}"#), path: "timestep.maxStepsPerFrame",
        line: 4,
        "must be ≥ 1"),
    BadInput(
        "zero columns", grid(#""idPrefix": "q""#).replacingOccurrences(of: #""columns": 2"#, with: #""columns": 0"#),
        path: "grids[0].columns", line: 4, "must be ≥ 1"),
    BadInput(
        "negative rows", grid(#""idPrefix": "q""#).replacingOccurrences(of: #""rows": 2"#, with: #""rows": -3"#),
        path: "grids[0].rows", line: 4, "must be ≥ 1"),
    BadInput(
        "missing grid origin", extra(#""grids": [{"columns": 1, "rows": 1, "spacing": [1, 1]}]"#),
        path: "grids[0].origin",
        line: 4, "missing required key \"origin\""),
    // Duplicate ids.
    BadInput(
        "duplicate listed id",
        scenarioText(
            """
            "crates": [
                { "id": "a", "position": [100, 100] },
                { "id": "a", "position": [200, 100] }
              ]
            """), path: "crates[1].id", line: 6, "duplicate crate id \"a\" (first used at crates[0].id, 5:"),
    BadInput(
        "grid id duplicates a listed id",
        scenarioText(
            """
            "crates": [{ "id": "g1_0", "position": [100, 100] }],
              "grids": [{ "idPrefix": "g", "origin": [10, 10], "columns": 2, "rows": 2, "spacing": [40, 40] }]
            """), path: "grids[0]", line: 5,
        "grid crate \"g1_0\" (row 1, column 0) duplicates the crate id first used at crates[0].id, 4:"),
    BadInput(
        "two grids with one prefix",
        scenarioText(
            """
            "grids": [
                { "idPrefix": "g", "origin": [10, 10], "columns": 1, "rows": 1, "spacing": [0, 0] },
                { "idPrefix": "g", "origin": [50, 10], "columns": 1, "rows": 1, "spacing": [0, 0] }
              ]
            """), path: "grids[1]", line: 6,
        "\"g0_0\" (row 0, column 0) duplicates the crate id first used at grids[0] (row 0, column 0)"),
    // Orientation, tilt.
    BadInput(
        "unknown orientation", extra(#""tilt": {"file": "t.csv", "orientation": "sideways"}"#),
        path: "tilt.orientation",
        line: 4, "unknown orientation \"sideways\"; valid: portrait, portraitUpsideDown, landscapeLeft, landscapeRight"),
    BadInput(
        "tilt without file", extra(#""tilt": {"g": 9.8}"#), path: "tilt.file", line: 4, "missing required key \"file\""),
    BadInput("tilt g zero", extra(#""tilt": {"file": "t.csv", "g": 0}"#), path: "tilt.g", line: 4, "must be > 0"),
    // Outside the world.
    BadInput(
        "crate outside", crate(#""size": [8, 8]"#).replacingOccurrences(of: "[100, 100]", with: "[100, 321]"),
        path: "crates[0].position", line: 4, "crate \"a\" at [100, 321] lies outside the world [0, 480] × [0, 320]"),
    BadInput(
        "grid crate outside", extra(#""grids": [{"origin": [40, 20], "columns": 8, "rows": 1, "spacing": [70, 0]}]"#),
        path: "grids[0]", line: 4, "grid crate \"g0_0_7\" (row 0, column 7) at [530, 20] lies outside the world"),
    // Segments.
    BadInput(
        "zero-length segment", extra(#""segments": [{"from": [5, 5], "to": [5, 5]}]"#), path: "segments[0].to", line: 4,
        "must differ from its \"from\""),
    BadInput(
        "segment missing to", extra(#""segments": [{"from": [5, 5]}]"#), path: "segments[0].to", line: 4,
        "missing required key"),
    // Spatial index.
    BadInput(
        "unknown spatial index", world(#""spatialIndex": "quadtree""#), path: "world.spatialIndex", line: 3,
        "unknown spatial index \"quadtree\""),
    BadInput(
        "hash count zero", world(#""spatialIndex": {"hash": {"count": 0}}"#), path: "world.spatialIndex.hash.count",
        line: 3,
        "must be ≥ 1"),
    BadInput(
        "hash cell size zero", world(#""spatialIndex": {"hash": {"cellSize": 0}}"#),
        path: "world.spatialIndex.hash.cellSize",
        line: 3, "must be > 0"),
    BadInput(
        "hash cell size too small for the walls", world(#""spatialIndex": {"hash": {"cellSize": 0.001}}"#),
        path: "world.spatialIndex.hash.cellSize", line: 3, "is too small: a segment would cover"),
    BadInput(
        "hash cell size too small for a crate",
        scenarioText(
            world: #""size": [480, 320], "spatialIndex": {"hash": {}}"#,
            #""walls": {"box": false}, "crates": [{"id": "big", "position": [1, 1], "size": [100000, 100000]}]"#),
        path: "world.spatialIndex.hash", line: 3, "cell size 20 is too small: crate \"big\" would cover about"),
    // Caps.
    BadInput("world too big", scenarioText(world: #""size": [2e6, 320]"#), path: "world.size[0]", line: 3, "≤ 1000000"),
    BadInput(
        "gravity too strong", world(#""gravity": [0, -1e7]"#), path: "world.gravity[1]", line: 3,
        "between -1000000 and 1000000"),
    BadInput("hz too high", extra(#""timestep": {"hz": 200000}"#), path: "timestep.hz", line: 4, "≤ 100000"),
    BadInput("iterations too many", world(#""iterations": 5000"#), path: "world.iterations", line: 3, "must be ≤ 1000"),
    BadInput(
        "maxStepsPerFrame too many", extra(#""timestep": {"maxStepsPerFrame": 10001}"#),
        path: "timestep.maxStepsPerFrame",
        line: 4, "must be ≤ 10000"),
    BadInput("duration too long", extra(#""duration": 2e6"#), path: "duration", line: 4, "≤ 1000000"),
    BadInput(
        "too many steps", extra(#""duration": 1e6, "timestep": {"hz": 10000}"#), path: "duration", line: 4,
        "gives 10000000000 steps; a run needs between 1 and 1000000000"),
    BadInput("too few steps", extra(#""duration": 0.001"#), path: "duration", line: 4, "gives 0 steps"),
    BadInput(
        "too few steps blames hz",
        "{\n \"format\": \"tiltbox-scenario/1\", \"world\": {\"size\": [1, 1]},\n \"timestep\": {\"hz\": 0.01}}",
        path: "timestep.hz", line: 3, "gives 0 steps"),
    BadInput("mass too heavy", crate(#""mass": 1e13"#), path: "crates[0].mass", line: 4, "≤ 1000000000000"),
    BadInput("mass too light", crate(#""mass": 1e-10"#), path: "crates[0].mass", line: 4, "≥ 1e-09"),
    BadInput("crate too wide", crate(#""size": [1e6, 1]"#), path: "crates[0].size[0]", line: 4, "≤ 100000"),
    BadInput(
        "velocity too fast", crate(#""velocity": [1e8, 0]"#), path: "crates[0].velocity[0]", line: 4,
        "between -10000000 and 10000000"),
    BadInput(
        "spin too fast", crate(#""angularVelocity": -1e7"#), path: "crates[0].angularVelocity", line: 4,
        "between -1000000"),
    BadInput("angle too big", crate(#""angle": 1e7"#), path: "crates[0].angle", line: 4, "between -1000000"),
    BadInput("friction too big", crate(#""friction": 1e4"#), path: "crates[0].friction", line: 4, "≤ 1000"),
    BadInput("wall radius too big", extra(#""walls": {"radius": 1e6}"#), path: "walls.radius", line: 4, "≤ 100000"),
    BadInput(
        "crate cap with listed crates",
        scenarioText(
            world: #""size": [1000, 1000]"#,
            """
            "crates": [{ "id": "a", "position": [1, 1] }],
              "grids": [{ "origin": [0, 0], "columns": 1000, "rows": 100, "spacing": [1, 1] }]
            """), path: "grids[0]", line: 5,
        "1000 × 100 = 100000 crates; with the 1 before this grid that is more than the limit of 100000"),
]

@Suite struct ScenarioErrorTests {
    @Test(arguments: badInputs)
    func badInputIsRejectedWithPathAndLine(_ case: BadInput) throws {
        let error = try #require(loadError(`case`.text), "expected \(`case`.name) to be rejected")
        let description = error.description
        #expect(error.file == "Scenarios/test.json")
        #expect(error.location?.line == `case`.line, "\(description)")
        #expect(description.hasPrefix("Scenarios/test.json:\(`case`.line):"), "\(description)")
        if let path = `case`.path {
            #expect(error.path == path, "\(description)")
            #expect(description.contains(": \(path): "), "\(description)")
        } else {
            #expect(error.path == nil, "\(description)")
        }
        #expect(description.contains(`case`.reason), "\(description)")
        // One line, as the command line prints it.
        #expect(!description.contains("\n"))
    }

    @Test func unknownKeyIsReportedAtTheKey() throws {
        let text = scenarioText(world: #""size": [480, 320], "gravty": [0, -1]"#)
        let error = try #require(loadError(text))
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
        let column = try #require(line.range(of: "\"gravty\"")).lowerBound.utf16Offset(in: line) + 1
        #expect(error.location == SourceLocation(line: 3, column: column))
        #expect(error.description.hasPrefix("Scenarios/test.json:3:\(column): world.gravty: unknown key \"gravty\""))
    }

    @Test func crateSizeErrorNamesPathAndLine() throws {
        // The brief's own example: crates[1].size[1] on line 7.
        let text = """
            {
              "format": "tiltbox-scenario/1",
              "world": { "size": [480, 320] },
              "crates": [
                { "id": "a", "position": [100, 200] },
                { "id": "b", "position": [200, 200],
                  "size": [32, 0] }
              ]
            }
            """
        let error = try #require(loadError(text))
        #expect(error.description.contains(":7:"))
        #expect(error.description.contains("crates[1].size[1]"))
        #expect(error.location == SourceLocation(line: 7, column: 20))
    }

    @Test func billionCrateGridIsRefusedAtOnce() throws {
        let text = scenarioText(#""grids": [{"origin": [0, 0], "columns": 31623, "rows": 31623, "spacing": [0, 0]}]"#)
        let clock = ContinuousClock()
        var error: InputError?
        let elapsed = clock.measure { error = loadError(text) }
        let found = try #require(error)
        #expect(found.path == "grids[0]")
        #expect(found.description.contains("31623 × 31623 = 1000014129 crates"))
        #expect(elapsed < .seconds(1))
    }

    @Test func hugeColumnCountIsRefusedWithoutOverflow() throws {
        let text = scenarioText(#""grids": [{"origin": [0, 0], "columns": 1e300, "rows": 1e300, "spacing": [0, 0]}]"#)
        let error = try #require(loadError(text))
        #expect(error.path == "grids[0].columns")
        #expect(error.description.contains("must be ≤ 100000"))
    }

    @Test func everyBadInputCaseIsDistinct() {
        #expect(Set(badInputs.map(\.name)).count == badInputs.count)
    }
}
