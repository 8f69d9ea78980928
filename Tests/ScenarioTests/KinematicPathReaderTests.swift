import Testing

@_spi(Tools) @testable import Tiltbox

/// Reads `text` as the `path` of body 0, the way the scenario loader hands it over.
private func readPath(_ text: String) throws(InputError) -> KinematicPath {
    let node: JSONNode
    do { node = try JSONParser.parse(text) } catch {
        throw InputError(file: "test.json", location: error.location, reason: "not valid JSON: \(error.reason)")
    }
    return try FieldReader(file: "test.json").kinematicPath(node, "bodies[0].path")
}

/// One invalid path and the field path and reason fragment its error must carry.
struct BadPath: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var path: String
    var reason: String
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ path: String, _ reason: String) {
        self.name = name
        self.text = text
        self.path = path
        self.reason = reason
    }
}

private let p = "bodies[0].path"
private let two = #"{"t": 0, "position": [0, 0]}, {"t": 1, "position": [10, 0]}"#

let badPaths: [BadPath] = [
    BadPath("not an object", "[1]", p, "expected an object"),
    BadPath("neither keyframes nor bezierPath", #"{"repeat": "loop"}"#, p, "missing \"keyframes\" or \"bezierPath\""),
    BadPath(
        "both keyframes and bezierPath",
        #"{"keyframes": [\#(two)], "bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 1}"#,
        p + ".bezierPath", "either \"keyframes\" or \"bezierPath\", not both"),
    BadPath(
        "misspelt path key", #"{"keyframes": [\#(two)], "repat": "loop"}"#, p + ".repat", "did you mean \"repeat\""),
    BadPath("unknown repeat", #"{"keyframes": [\#(two)], "repeat": "loops"}"#, p + ".repeat", "did you mean \"loop\""),
    BadPath(
        "duration on keyframes", #"{"keyframes": [\#(two)], "duration": 3}"#, p + ".duration",
        "belongs to a \"bezierPath\""),
    BadPath(
        "rotationMode on keyframes", #"{"keyframes": [\#(two)], "rotationMode": "auto"}"#, p + ".rotationMode",
        "belongs to a \"bezierPath\""),
    BadPath("no keyframes", #"{"keyframes": []}"#, p + ".keyframes", "at least one keyframe"),
    BadPath("keyframes not an array", #"{"keyframes": {}}"#, p + ".keyframes", "expected an array"),
    BadPath(
        "misspelt keyframe key", #"{"keyframes": [{"t": 0, "postion": [0, 0]}]}"#, p + ".keyframes[0].postion",
        "did you mean \"position\""),
    BadPath("missing position", #"{"keyframes": [{"t": 0}]}"#, p + ".keyframes[0].position", "missing required key"),
    BadPath("missing t", #"{"keyframes": [{"position": [0, 0]}]}"#, p + ".keyframes[0].t", "missing required key"),
    BadPath(
        "negative first t", #"{"keyframes": [{"t": -1, "position": [0, 0]}]}"#, p + ".keyframes[0].t", "must be ≥ 0"),
    BadPath(
        "decreasing t", #"{"keyframes": [{"t": 2, "position": [0, 0]}, {"t": 1, "position": [1, 0]}]}"#,
        p + ".keyframes[1].t", "times must increase strictly"),
    BadPath(
        "repeated t", #"{"keyframes": [{"t": 1, "position": [0, 0]}, {"t": 1, "position": [1, 0]}]}"#,
        p + ".keyframes[1].t", "times must increase strictly"),
    BadPath(
        "overflowing coordinate", #"{"keyframes": [{"t": 0, "position": [1e999, 0]}]}"#,
        p + ".keyframes[0].position[0]", "too large"),
    BadPath(
        "angle a string", #"{"keyframes": [{"t": 0, "position": [0, 0], "angle": "up"}]}"#,
        p + ".keyframes[0].angle", "expected a number"),
    BadPath(
        "loop of one keyframe", #"{"repeat": "loop", "keyframes": [{"t": 0, "position": [0, 0]}]}"#,
        p + ".repeat", "needs at least two keyframes"),
    BadPath(
        "pingpong of one keyframe", #"{"repeat": "pingpong", "keyframes": [{"t": 2, "position": [0, 0]}]}"#,
        p + ".repeat", "needs at least two keyframes"),
    BadPath(
        "unknown curve",
        #"{"keyframes": [{"t": 0, "position": [0, 0]}, {"t": 1, "position": [1, 0], "curve": "easyIn"}]}"#,
        p + ".keyframes[1].curve", "easyIn"),
    BadPath(
        "cubicBezier x out of range",
        #"{"keyframes": [{"t": 0, "position": [0, 0]}, {"t": 1, "position": [1, 0], "curve": {"cubicBezier": [2, 0, 0.5, 1]}}]}"#,
        p + ".keyframes[1].curve", "x1"),
    BadPath(
        "misspelt spring parameter",
        #"{"keyframes": [{"t": 0, "position": [0, 0]}, {"t": 1, "position": [1, 0], "curve": {"spring": {"stifness": 5}}}]}"#,
        p + ".keyframes[1].curve.spring.stifness", "did you mean \"stiffness\""),
    BadPath(
        "overshooting curve",
        #"{"keyframes": [{"t": 0, "position": [0, 0]}, {"t": 1, "position": [1e6, 0], "curve": {"cubicBezier": [0.5, 1e3, 0.5, 1]}}]}"#,
        p + ".keyframes[1].curve", "overshoots: position[0] could reach"),
    BadPath(
        "bezierPath of five points", #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0], [4, 0]], "duration": 1}"#,
        p + ".bezierPath", "1 + 3k points with k ≥ 1"),
    BadPath("bezierPath of one point", #"{"bezierPath": [[0, 0]], "duration": 1}"#, p + ".bezierPath", "got 1"),
    BadPath(
        "bezierPath point not a pair", #"{"bezierPath": [[0, 0], [1, 1], 7, [3, 0]], "duration": 1}"#,
        p + ".bezierPath[2]", "expected an array of two numbers"),
    BadPath(
        "bezierPath of zero length", #"{"bezierPath": [[5, 5], [5, 5], [5, 5], [5, 5]], "duration": 1}"#,
        p + ".bezierPath", "zero length"),
    BadPath(
        "bezierPath without duration", #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]]}"#, p + ".duration",
        "missing required key"),
    BadPath(
        "zero duration", #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 0}"#, p + ".duration",
        "must be > 0"),
    BadPath(
        "unknown rotationMode",
        #"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 1, "rotationMode": "autoReversed"}"#,
        p + ".rotationMode", "did you mean \"autoReverse\""),
]

@Suite struct KinematicPathReaderTests {
    @Test(arguments: badPaths)
    func refusalNamesTheFieldPath(_ bad: BadPath) {
        var caught: InputError?
        do { _ = try readPath(bad.text) } catch { caught = error }
        guard let error = caught else {
            Issue.record("\(bad.name): accepted")
            return
        }
        #expect(error.path == bad.path, "\(error)")
        #expect(error.reason.contains(bad.reason), "\(error)")
        #expect(error.line == 1 && error.column != nil, "\(error)")
        #expect(error.description.hasPrefix("test.json:1:"), "\(error)")
    }

    @Test func errorStandsAtTheOffendingValue() throws {
        let text = "{\"keyframes\": [\n  {\"t\": 0, \"position\": [0, 0]},\n  {\"t\": 0, \"position\": [1, 0]}]}"
        var caught: InputError?
        do { _ = try readPath(text) } catch { caught = error }
        let error = try #require(caught)
        #expect(error.location == SourceLocation(line: 3, column: 9))
        #expect(error.path == "bodies[0].path.keyframes[1].t")
    }

    @Test func keyframesReadWithDefaultsAndTiltCurves() throws {
        let path = try readPath(
            #"""
            {"repeat": "pingpong", "keyframes": [
              {"t": 0.5, "position": [100, 80]},
              {"t": 3, "position": [380, 80], "angle": 1.5, "curve": "easeInEaseOut"},
              {"t": 4, "position": [380, 90], "curve": {"cubicBezier": [0.1, 0.2, 0.3, 0.4]}},
              {"t": 5, "position": [380, 95], "curve": "easeOutBounce"},
              {"t": 6, "position": [380, 99], "curve": {"spring": {"stiffness": 50}}}]}
            """#)
        let expected = KinematicPath.keyframes(
            [
                PoseKeyframe(t: 0.5, position: Vec2(100, 80)),
                PoseKeyframe(t: 3, position: Vec2(380, 80), angle: 1.5, curve: .easeInEaseOut),
                PoseKeyframe(
                    t: 4, position: Vec2(380, 90), curve: try .cubicBezier(x1: 0.1, y1: 0.2, x2: 0.3, y2: 0.4)),
                PoseKeyframe(t: 5, position: Vec2(380, 95), curve: .penner(.easeOutBounce)),
                PoseKeyframe(
                    t: 6, position: Vec2(380, 99),
                    curve: .spring(SpringCurve(mass: 1, stiffness: 50, damping: 10, initialVelocity: 0))),
            ], repeat: .pingpong)
        #expect(path == expected)
    }

    @Test func theFormatsExamplePlatformGoesAndComesBack() throws {
        // docs/formats.md §5, the platform's path verbatim.
        let path = try readPath(
            #"""
            { "repeat": "pingpong", "keyframes": [
                  { "t": 0, "position": [100, 80], "angle": 0 },
                  { "t": 3, "position": [380, 80], "angle": 0, "curve": "easeInEaseOut" } ] }
            """#)
        let track = path.track()
        #expect(track.pose(at: 0) == BodyPose(position: Vec2(100, 80), angle: 0))
        #expect(track.pose(at: 3) == BodyPose(position: Vec2(380, 80), angle: 0))
        // easeInEaseOut is symmetric: halfway in time, halfway along; the way back mirrors it.
        for t in [1.5, 4.5, 7.5] {
            #expect(abs(track.pose(at: t).position.x - 240) < 1e-9, "t = \(t)")
        }
        #expect((track.pose(at: 6).position - Vec2(100, 80)).length < 1e-9)
        // Moving right on the way out, left on the way back, at rest at the turns.
        #expect(track.drive(step: 90, dt: 1.0 / 60).velocity.x > 100)
        #expect(track.drive(step: 270, dt: 1.0 / 60).velocity.x < -100)
        #expect(abs(track.drive(step: 180, dt: 1.0 / 60).velocity.x) < 2) // measured 0.98 over the first 1/60 s
    }

    @Test func oneKeyframeIsAParkedBody() throws {
        #expect(
            try readPath(#"{"keyframes": [{"t": 0, "position": [1, 2], "angle": 3}]}"#)
                == .keyframes([PoseKeyframe(t: 0, position: Vec2(1, 2), angle: 3)], repeat: .none))
    }

    @Test func bezierPathReadsWithDefaults() throws {
        let plain = try readPath(#"{"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0]], "duration": 2}"#)
        #expect(
            plain
                == .bezier(
                    points: [Vec2(0, 0), Vec2(1, 1), Vec2(2, 1), Vec2(3, 0)], duration: 2,
                    rotationMode: .none, repeat: .none))
        let full = try readPath(
            #"""
            {"bezierPath": [[0, 0], [1, 1], [2, 1], [3, 0], [4, -1], [5, -1], [6, 0]],
             "duration": 4, "rotationMode": "autoReverse", "repeat": "loop"}
            """#)
        guard case .bezier(let points, 4, .autoReverse, .loop) = full else {
            Issue.record("read as \(full)")
            return
        }
        #expect(points.count == 7)
    }
}
