import Foundation
import Testing

/// Invalid kinematic `path`s (docs/formats.md §5) through the built binary: `validate` and
/// `run` both exit 2 with one line naming the file and the field path under `bodies[0].path`.
@Suite struct BadPathTests {
    static func scenario(_ path: String) -> String {
        BadBody.one(
            #"{"id": "p", "type": "kinematic", "position": [100, 100], "shapes": [{"box": {"size": [40, 10]}}], "path": \#(path)}"#
        )
    }

    static let cases: [(name: String, path: String, field: String, says: String)] = [
        (
            "both-kinds",
            #"{"keyframes": [{"t": 0, "position": [0, 0]}], "bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 1}"#,
            "bodies[0].path.bezierPath", "not both"
        ),
        (
            "decreasing-t", #"{"keyframes": [{"t": 1, "position": [0, 0]}, {"t": 0.5, "position": [1, 0]}]}"#,
            "bodies[0].path.keyframes[1].t", "increase strictly"
        ),
        (
            "misspelt-curve",
            #"{"keyframes": [{"t": 0, "position": [0, 0]}, {"t": 1, "position": [1, 0], "curve": "easeInOut"}]}"#,
            "bodies[0].path.keyframes[1].curve", "easeInOut"
        ),
        (
            "loop-of-one", #"{"repeat": "loop", "keyframes": [{"t": 0, "position": [0, 0]}]}"#,
            "bodies[0].path.repeat", "at least two keyframes"
        ),
        (
            "five-points", #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0], [4, 4]], "duration": 1}"#,
            "bodies[0].path.bezierPath", "1 + 3k points"
        ),
        (
            "zero-length", #"{"bezierPath": [[7, 7], [7, 7], [7, 7], [7, 7]], "duration": 1}"#,
            "bodies[0].path.bezierPath", "zero length"
        ),
        (
            "zero-duration", #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 0}"#,
            "bodies[0].path.duration", "must be > 0"
        ),
        (
            "bad-rotation",
            #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 2, "rotationMode": "rotateAuto"}"#,
            "bodies[0].path.rotationMode", "valid: none, auto, autoReverse"
        ),
    ]

    @Test(arguments: 0..<cases.count)
    func aBadPathExitsTwoNamingItsField(_ index: Int) throws {
        let bad = Self.cases[index]
        let directory = try TemporaryDirectory()
        let file = try directory.write("\(bad.name).json", Self.scenario(bad.path))
        for arguments in [["validate", file], ["run", file, "--view", "none"]] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            let command = "tiltbox \(arguments[0]) \(bad.name).json"
            #expect(result.status == 2, "\(command) exited \(result.status); stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command) wrote to stdout: \(result.stdout)")
            #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix(file), "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains(": \(bad.field): "), "\(command) does not name \(bad.field): \(result.stderr)")
            #expect(result.stderr.contains(bad.says), "\(command) does not say \"\(bad.says)\": \(result.stderr)")
        }
    }
}
