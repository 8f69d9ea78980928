import Foundation
import Testing

/// Invalid shape keys (docs/formats.md §8: `filter`, `sensor`, `collisionType`,
/// `surfaceVelocity`) on body shapes, crates, grid templates, segments and walls: refused
/// before the world is built, with exit 2 and one line naming the file, the field path and
/// the reason.
enum BadShapeKey {
    static func keys(_ keys: String) -> String { BadBody.shape(#"{"circle": {"radius": 5}, "mass": 1, \#(keys)}"#) }
    static let shape = "bodies[0].shapes[0]"

    static let all: [BadBody] = [
        BadBody(name: "filter-not-object", json: keys(#""filter": 3"#), path: "\(shape).filter", says: "expected"),
        BadBody(
            name: "filter-unknown-key", json: keys(#""filter": {"grop": 1}"#), path: "\(shape).filter.grop",
            says: "did you mean \"group\""),
        BadBody(
            name: "group-negative", json: keys(#""filter": {"group": -1}"#), path: "\(shape).filter.group",
            says: "must be ≥ 0 and < 2^63"),
        BadBody(
            name: "group-2-to-the-63", json: keys(#""filter": {"group": 9223372036854775808}"#),
            path: "\(shape).filter.group", says: "< 2^63"),
        BadBody(
            name: "group-fraction", json: keys(#""filter": {"group": 1.5}"#), path: "\(shape).filter.group",
            says: "expected an integer, got 1.5"),
        BadBody(
            name: "group-string", json: keys(#""filter": {"group": "1"}"#), path: "\(shape).filter.group",
            says: "expected an integer, got a string"),
        BadBody(
            name: "group-infinite", json: keys(#""filter": {"group": 1e999}"#), path: "\(shape).filter.group",
            says: "too large"),
        BadBody(
            name: "categories-above-32-bits", json: keys(#""filter": {"categories": 4294967296}"#),
            path: "\(shape).filter.categories", says: "must be ≤ 4294967295"),
        BadBody(
            name: "mask-negative", json: keys(#""filter": {"mask": -1}"#), path: "\(shape).filter.mask",
            says: "must be ≥ 0"),
        BadBody(
            name: "sensor-not-bool", json: keys(#""sensor": "yes""#), path: "\(shape).sensor",
            says: "expected true or false"),
        BadBody(
            name: "collision-type-number", json: keys(#""collisionType": 3"#), path: "\(shape).collisionType",
            says: "expected a string"),
        BadBody(
            name: "collision-type-empty", json: keys(#""collisionType": """#), path: "\(shape).collisionType",
            says: "must not be empty"),
        BadBody(
            name: "collision-type-wildcard", json: keys(#""collisionType": "*""#), path: "\(shape).collisionType",
            says: "wildcard"),
        BadBody(
            name: "surface-velocity-one-number", json: keys(#""surfaceVelocity": [1]"#),
            path: "\(shape).surfaceVelocity", says: "two numbers"),
        BadBody(
            name: "surface-velocity-too-fast", json: keys(#""surfaceVelocity": [2e7, 0]"#),
            path: "\(shape).surfaceVelocity[0]", says: "must be"),
        BadBody(
            name: "crate-mask-fraction",
            json: BadBody.with(#""crates": [{"id": "c", "position": [100, 100], "filter": {"mask": 0.5}}]"#),
            path: "crates[0].filter.mask", says: "expected an integer"),
        BadBody(
            name: "grid-template-wildcard-type",
            json: BadBody.with(
                #""grids": [{"origin": [100, 100], "columns": 1, "rows": 1, "spacing": [40, 40], "crate": {"collisionType": "*"}}]"#
            ),
            path: "grids[0].crate.collisionType", says: "wildcard"),
        BadBody(
            name: "segment-sensor-number",
            json: BadBody.with(#""segments": [{"from": [0, 0], "to": [10, 0], "sensor": 1}]"#),
            path: "segments[0].sensor", says: "expected true or false"),
        BadBody(
            name: "walls-surface-velocity-infinite",
            json: BadBody.with(#""walls": {"surfaceVelocity": [0, -1e999]}"#),
            path: "walls.surfaceVelocity[1]", says: "too large"),
        BadBody(
            name: "dt-zero", json: BadBody.with(#""timestep": {"dt": 0}"#), path: "timestep.dt", says: "must be > 0"),
        BadBody(
            name: "dt-negative", json: BadBody.with(#""timestep": {"dt": -0.01}"#), path: "timestep.dt",
            says: "must be > 0"),
        BadBody(
            name: "dt-above-one", json: BadBody.with(#""timestep": {"dt": 1.5}"#), path: "timestep.dt",
            says: "must be > 0 and ≤ 1"),
        BadBody(
            name: "dt-string", json: BadBody.with(#""timestep": {"dt": "1/150"}"#), path: "timestep.dt",
            says: "expected a number"),
        BadBody(
            name: "dt-with-hz", json: BadBody.with(#""timestep": {"hz": 120, "dt": 0.01}"#), path: "timestep.dt",
            says: "not both"),
        BadBody(
            name: "dt-too-many-steps", json: BadBody.with(#""timestep": {"dt": 1e-300}, "duration": 1"#),
            path: "duration", says: "duration / timestep.dt"),
        BadBody(
            name: "given-mass-with-shape-density",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": 10, "shapes": [{"circle": {"radius": 5}, "density": 1}]}"#
            ),
            path: "bodies[0].shapes[0].density", says: "carry neither"),
        BadBody(
            name: "given-mass-with-shape-mass",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": 10, "shapes": [{"circle": {"radius": 5}, "mass": 1}]}"#
            ),
            path: "bodies[0].shapes[0].mass", says: "carry neither"),
        BadBody(
            name: "negative-moment",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": -3, "shapes": [{"circle": {"radius": 5}}]}"#),
            path: "bodies[0].moment", says: "must be > 0"),
        BadBody(
            name: "moment-wrong-string",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": "infinity", "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].moment", says: "expected a number or \"infinite\""),
        BadBody(
            name: "mass-without-moment",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "shapes": [{"circle": {"radius": 5}}]}"#),
            path: "bodies[0].mass", says: "gives its \"moment\" too"),
        BadBody(
            name: "moment-without-mass",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "moment": 1, "shapes": [{"circle": {"radius": 5}, "mass": 1}]}"#),
            path: "bodies[0].moment", says: "needs the body's \"mass\""),
        BadBody(
            name: "body-mass-too-small",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1e-12, "moment": 1, "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].mass", says: "must be"),
        BadBody(
            name: "centre-of-gravity-non-finite",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": 10, "centerOfGravity": [0, 1e999], "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].centerOfGravity[1]", says: "too large"),
        BadBody(
            name: "mass-on-static-body",
            json: BadBody.one(
                #"{"id": "b", "type": "static", "position": [100, 100], "mass": 1, "moment": 1, "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].mass", says: "has no mass"),
        BadBody(
            name: "given-moment-too-small-for-reach",
            json: BadBody.one(
                #"{"id": "b", "position": [100, 100], "mass": 1, "moment": 1e-9, "shapes": [{"circle": {"radius": 5}}]}"#
            ),
            path: "bodies[0].moment", says: "too small a moment of inertia"),
    ]
}

@Suite struct BadShapeKeyTests {
    @Test(arguments: BadShapeKey.all)
    func everyBadShapeKeyExitsTwoNamingTheFieldPath(_ bad: BadBody) throws {
        try BadBodyTests().everyBadBodyExitsTwoNamingTheFieldPathBeforeChipmunkSeesIt(bad)
    }
}

/// `timestep.dt` through the binary: the trace header's `dt` is the double the file gave
/// (not `1 / (1 / dt)`), `hz` is `1 / dt`, the step count is `duration / dt`, and `verify`
/// re-runs the trace to the same records.
@Suite struct ExactStepTraceTests {
    @Test func theTraceHeaderRecordsTheGivenDtExactlyAndVerifyAgrees() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "dt.json",
            BadBody.with(
                #""duration": 1, "timestep": {"dt": 0.006666666666666666}, "crates": [{"id": "c", "position": [100, 100], "filter": {"group": 2}, "surfaceVelocity": [3, 0]}]"#
            ))
        let trace = directory.path("dt.jsonl")
        let run = try TiltboxBinary.run(["run", file, "--trace", trace, "-q"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let header = String(text.prefix { $0 != "\n" })
        #expect(header.contains(#""dt":0.006666666666666666,"#), "\(header.prefix(200))")
        #expect(header.contains(#""hz":150,"#) || header.contains(#""hz":150}"#), "\(header)")
        #expect(text.contains(#"{"end":"complete","steps":150,"#))
        let verify = try TiltboxBinary.run(["verify", file, "--against", trace], in: directory)
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
    }
}
