import Foundation
import Testing

/// One invalid `bodies` entry (docs/formats.md §5) and what `tiltbox` must say about it:
/// everything Chipmunk would assert on, and everything meaningless, is refused before the
/// world is built, with exit 2, the field path and the reason.
struct BadBody: Sendable, CustomTestStringConvertible {
    var name: String
    /// The `bodies` array (and, for id clashes, more keys before it).
    var json: String
    var path: String
    /// A phrase the reason must contain.
    var says: String

    var testDescription: String { name }

    static func with(_ rest: String) -> String { "{\(BadScenario.world), \(rest)}" }
    static func one(_ body: String) -> String { with("\"bodies\": [\(body)]") }
    static func shape(_ shape: String, type: String = "dynamic") -> String {
        one(#"{"id": "b", "type": "\#(type)", "position": [100, 100], "shapes": [\#(shape)]}"#)
    }
    static func polygon(_ vertices: String) -> String { shape(#"{"polygon": {"vertices": \#(vertices)}, "mass": 1}"#) }

    static let all: [BadBody] = [
        BadBody(
            name: "non-finite-position",
            json: one(#"{"id": "b", "position": [100, 1e999], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}"#),
            path: "bodies[0].position[1]", says: "too large"),
        BadBody(
            name: "zero-circle-radius", json: shape(#"{"circle": {"radius": 0}, "mass": 1}"#),
            path: "bodies[0].shapes[0].circle.radius", says: "must be"),
        BadBody(
            name: "negative-circle-radius", json: shape(#"{"circle": {"radius": -2}, "mass": 1}"#),
            path: "bodies[0].shapes[0].circle.radius", says: "must be"),
        BadBody(
            name: "zero-box-size", json: shape(#"{"box": {"size": [0, 10]}, "mass": 1}"#),
            path: "bodies[0].shapes[0].box.size[0]", says: "must be"),
        BadBody(
            name: "negative-box-radius", json: shape(#"{"box": {"size": [10, 10], "radius": -1}, "mass": 1}"#),
            path: "bodies[0].shapes[0].box.radius", says: "must be"),
        BadBody(
            name: "negative-segment-radius",
            json: shape(#"{"segment": {"from": [0, 0], "to": [10, 0], "radius": -1}, "mass": 1}"#),
            path: "bodies[0].shapes[0].segment.radius", says: "must be"),
        BadBody(
            name: "zero-length-segment", json: shape(#"{"segment": {"from": [3, 4], "to": [3, 4]}, "mass": 1}"#),
            path: "bodies[0].shapes[0].segment.to", says: "must differ"),
        BadBody(
            name: "polygon-two-vertices", json: polygon("[[0, 0], [10, 0]]"),
            path: "bodies[0].shapes[0].polygon.vertices", says: "at least 3 vertices"),
        BadBody(
            name: "polygon-repeated-vertex", json: polygon("[[0, 0], [10, 0], [0, 0], [0, 10]]"),
            path: "bodies[0].shapes[0].polygon.vertices[2]", says: "repeats vertex 0"),
        BadBody(
            name: "polygon-clockwise", json: polygon("[[0, 0], [0, 10], [10, 0]]"),
            path: "bodies[0].shapes[0].polygon.vertices[0]", says: "clockwise"),
        BadBody(
            name: "polygon-not-convex", json: polygon("[[0, 0], [20, 0], [20, 20], [10, 5], [0, 20]]"),
            path: "bodies[0].shapes[0].polygon.vertices[3]", says: "not convex"),
        BadBody(
            name: "polygon-collinear-vertex", json: polygon("[[0, 0], [5, 0], [10, 0], [0, 10]]"),
            path: "bodies[0].shapes[0].polygon.vertices[1]", says: "on the line"),
        BadBody(
            name: "polygon-all-collinear", json: polygon("[[0, 0], [5, 5], [10, 10]]"),
            path: "bodies[0].shapes[0].polygon.vertices", says: "collinear"),
        BadBody(
            name: "polygon-star", json: polygon("[[0, 10], [-6, -8], [9, 3], [-9, 3], [6, -8]]"),
            path: "bodies[0].shapes[0].polygon.vertices", says: "more than once"),
        BadBody(
            name: "dynamic-without-mass", json: shape(#"{"circle": {"radius": 5}}"#),
            path: "bodies[0].shapes", says: "no mass"),
        BadBody(
            name: "dynamic-zero-area-density",
            json: shape(#"{"segment": {"from": [0, 0], "to": [10, 0]}, "density": 1}"#),
            path: "bodies[0].shapes", says: "no mass"),
        BadBody(
            name: "zero-shape-mass", json: shape(#"{"circle": {"radius": 5}, "mass": 0}"#),
            path: "bodies[0].shapes[0].mass", says: "must be"),
        BadBody(
            name: "mass-and-density", json: shape(#"{"circle": {"radius": 5}, "mass": 1, "density": 1}"#),
            path: "bodies[0].shapes[0].density", says: "not both"),
        BadBody(
            name: "kinematic-with-mass", json: shape(#"{"circle": {"radius": 5}, "mass": 1}"#, type: "kinematic"),
            path: "bodies[0].shapes[0].mass", says: "has no mass"),
        BadBody(
            name: "static-with-density", json: shape(#"{"circle": {"radius": 5}, "density": 1}"#, type: "static"),
            path: "bodies[0].shapes[0].density", says: "has no mass"),
        BadBody(
            name: "negative-friction", json: shape(#"{"circle": {"radius": 5}, "mass": 1, "friction": -0.1}"#),
            path: "bodies[0].shapes[0].friction", says: "must be"),
        BadBody(
            name: "two-shape-kinds", json: shape(#"{"circle": {"radius": 5}, "box": {"size": [4, 4]}, "mass": 1}"#),
            path: "bodies[0].shapes[0]", says: "not several"),
        BadBody(
            name: "no-shape-kind", json: shape(#"{"mass": 1}"#),
            path: "bodies[0].shapes[0]", says: "missing the shape"),
        BadBody(
            name: "no-shapes", json: one(#"{"id": "b", "position": [100, 100], "shapes": []}"#),
            path: "bodies[0].shapes", says: "at least one shape"),
        BadBody(
            name: "misspelt-shape-key", json: shape(#"{"circle": {"radus": 5}, "mass": 1}"#),
            path: "bodies[0].shapes[0].circle.radus", says: "did you mean \"radius\""),
        BadBody(
            name: "unknown-type", json: shape(#"{"circle": {"radius": 5}, "mass": 1}"#, type: "dynamc"),
            path: "bodies[0].type", says: "did you mean \"dynamic\""),
        BadBody(
            name: "id-static",
            json: one(#"{"id": "static", "position": [100, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}"#),
            path: "bodies[0].id", says: "names the world"),
        BadBody(
            name: "id-of-a-crate",
            json: with(
                #""crates": [{"id": "b", "position": [50, 50]}], "bodies": [{"id": "b", "position": [100, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}]"#
            ),
            path: "bodies[0].id", says: "a crate has it"),
        BadBody(
            name: "duplicate-body-id",
            json: with(
                #""bodies": [{"id": "b", "position": [100, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}, {"id": "b", "position": [200, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}]"#
            ),
            path: "bodies[1].id", says: "duplicate id"),
        BadBody(
            name: "dynamic-outside-world",
            json: one(#"{"id": "b", "position": [900, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}"#),
            path: "bodies[0].position", says: "outside the world"),
        BadBody(
            name: "static-with-velocity",
            json: one(
                #"{"id": "b", "type": "static", "position": [100, 100], "velocity": [1, 0], "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].velocity", says: "never moves"),
        BadBody(
            name: "path-on-dynamic",
            json: one(
                #"{"id": "b", "position": [100, 100], "shapes": [{"circle": {"radius": 5}, "mass": 1}], "path": {"keyframes": []}}"#
            ),
            path: "bodies[0].path", says: "only a kinematic body"),
        BadBody(
            name: "path-without-keyframes",
            json: one(
                #"{"id": "b", "type": "kinematic", "position": [100, 100], "shapes": [{"circle": {"radius": 5}}], "path": {"keyframes": []}}"#
            ),
            path: "bodies[0].path.keyframes", says: "keyframe"),
    ]
}

@Suite struct BadBodyTests {
    @Test(arguments: BadBody.all)
    func everyBadBodyExitsTwoNamingTheFieldPathBeforeChipmunkSeesIt(_ bad: BadBody) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("\(bad.name).json", bad.json)
        for arguments in [["validate", file], ["run", file, "--view", "none"]] {
            let result = try TiltboxBinary.run(arguments, in: directory)
            let command = "tiltbox \(arguments[0]) \(bad.name).json"
            #expect(result.status == 2, "\(command) exited \(result.status); stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command) wrote to stdout: \(result.stdout)")
            #expect(result.stderrLines.count == 1, "\(command) stderr is not one line: \(result.stderr)")
            #expect(result.stderr.hasPrefix(file), "\(command) message does not start with the file: \(result.stderr)")
            #expect(
                result.stderr.contains(": \(bad.path): "),
                "\(command) message does not name \(bad.path): \(result.stderr)")
            #expect(
                result.stderr.contains(bad.says), "\(command) message does not say \"\(bad.says)\": \(result.stderr)")
        }
    }
}
