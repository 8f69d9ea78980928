import Foundation
import Testing

/// One class of invalid scenario from docs/formats.md §1 and what `tiltbox` must say about it.
struct BadScenario: Sendable, CustomTestStringConvertible {
    /// What is wrong, used as the file name.
    var name: String
    var json: String
    /// The field path the message must name, or `nil` for a syntax error.
    var path: String?
    /// For syntax errors: the `:LINE:COL` the message must carry.
    var location: String?
    /// Also check `tiltbox run FILE`, not only `tiltbox validate FILE`.
    var alsoRun = false
    /// A fragment the reason must contain, when given.
    var reason: String?

    var testDescription: String { name }

    static let world = #""format": "tiltbox-scenario/1", "world": {"size": [480, 320]}"#

    static func with(_ rest: String) -> String { "{\(world), \(rest)}" }

    static let all: [BadScenario] = [
        BadScenario(
            name: "non-finite-number",
            json: with(#""crates": [{"id": "a", "position": [100, 1e999]}]"#),
            path: "crates[0].position[1]", alsoRun: true),
        BadScenario(
            name: "zero-size",
            json: with(
                #""crates": [{"id": "a", "position": [100, 100]}, {"id": "b", "position": [200, 100], "size": [10, 0]}]"#
            ),
            path: "crates[1].size[1]", alsoRun: true),
        BadScenario(
            name: "negative-grid-size",
            json: with(
                #""grids": [{"origin": [40, 40], "columns": 2, "rows": 2, "spacing": [30, 30], "crate": {"size": [-1, 20]}}]"#
            ),
            path: "grids[0].crate.size[0]"),
        BadScenario(
            name: "zero-mass",
            json: with(#""crates": [{"id": "a", "position": [100, 100], "mass": 0}]"#),
            path: "crates[0].mass", alsoRun: true),
        BadScenario(
            name: "negative-mass",
            json: with(#""crates": [{"id": "a", "position": [100, 100], "mass": -1}]"#),
            path: "crates[0].mass"),
        BadScenario(name: "zero-hz", json: with(#""timestep": {"hz": 0}"#), path: "timestep.hz", alsoRun: true),
        BadScenario(name: "negative-hz", json: with(#""timestep": {"hz": -120}"#), path: "timestep.hz"),
        BadScenario(
            name: "duplicate-id",
            json: with(#""crates": [{"id": "a", "position": [100, 100]}, {"id": "a", "position": [200, 100]}]"#),
            path: "crates[1].id", alsoRun: true),
        BadScenario(
            name: "unknown-orientation",
            json: with(#""tilt": {"file": "rock.csv", "orientation": "sideways"}"#),
            path: "tilt.orientation"),
        BadScenario(
            name: "crate-outside-world",
            json: with(#""crates": [{"id": "a", "position": [500, 100]}]"#),
            path: "crates[0].position", alsoRun: true),
        BadScenario(
            name: "wrong-type",
            json: with(#""duration": "long""#), path: "duration"),
        BadScenario(
            name: "wrong-type-in-array",
            json: with(#""crates": [{"id": "a", "position": [100, "up"]}]"#), path: "crates[0].position[1]"),
        BadScenario(
            name: "missing-world-size",
            json: #"{"format": "tiltbox-scenario/1", "world": {"gravity": [0, -980]}}"#, path: "world.size",
            alsoRun: true),
        BadScenario(
            name: "missing-format",
            json: #"{"world": {"size": [480, 320]}}"#, path: "format", alsoRun: true),
        BadScenario(
            name: "unknown-key",
            json: with(#""crates": [{"id": "a", "position": [100, 100], "colour": "red"}]"#),
            path: "crates[0].colour"),
        BadScenario(
            name: "syntax-trailing-comma",
            json: "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"world\": {\"size\": [480, 320],}\n}\n",
            location: ":3:32", alsoRun: true),
        BadScenario(
            name: "syntax-not-json",
            json: "format = tiltbox-scenario/1\n", location: ":1:1"),
        BadScenario(
            name: "syntax-truncated",
            json: "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"world\": {\"size\": [480,\n",
            location: ":4:1"),
    ]
}

@Suite struct BadScenarioTests {
    @Test(arguments: BadScenario.all + BadScenario.joints)
    func everyBadScenarioInputExitsTwoNamingFileAndFieldPath(_ bad: BadScenario) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("\(bad.name).json", bad.json)
        let commands = bad.alsoRun ? [["validate", file], ["run", file]] : [["validate", file]]
        for arguments in commands {
            let result = try TiltboxBinary.run(arguments, in: directory)
            let command = "tiltbox \(arguments[0]) \(bad.name).json"
            #expect(result.status == 2, "\(command) exited \(result.status); stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command) wrote to stdout: \(result.stdout)")
            #expect(result.stderrLines.count == 1, "\(command) stderr is not one line: \(result.stderr)")
            let message = result.stderr
            #expect(message.hasPrefix(file), "\(command) message does not start with the file: \(message)")
            if let path = bad.path {
                #expect(message.contains(": \(path): "), "\(command) message does not name \(path): \(message)")
            }
            if let reason = bad.reason {
                #expect(message.contains(reason), "\(command) message does not say \(reason): \(message)")
            }
            if let location = bad.location {
                #expect(
                    message.hasPrefix(file + location + ": "),
                    "\(command) message does not give line and column \(location): \(message)")
            }
        }
    }
}
