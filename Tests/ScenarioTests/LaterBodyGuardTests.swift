import Testing

@_spi(Tools) @testable import Tiltbox

/// The checks made for bodies at start applied to bodies that arrive or change later (issue 33,
/// point 2): spawns, timeline `set`s and joints added by the timeline are refused before the run
/// with one located line wherever Chipmunk would abort, crash or stall on them.
@Suite struct LaterBodyGuardTests {
    /// A 120 Hz, 1 s scenario in a 200 × 200 world with `extra` members (bodies, joints, timeline).
    static func text(_ extra: String, world: String = "") -> String {
        #"{"format": "tiltbox-scenario/1", "world": {"size": [200, 200]\#(world)}, "duration": 1, \#(extra)}"#
    }

    /// A dynamic body `id` at `x` that never rotates (`moment` "infinite").
    static func rigid(_ id: String, x: Int = 100) -> String {
        #"{"id": "\#(id)", "position": [\#(x), 100], "mass": 1, "moment": "infinite", "shapes": [{"circle": {"radius": 5}}]}"#
    }

    /// A dynamic ball `id` at `x` with its mass from its shape.
    static func ball(_ id: String, x: Int = 100, y: Int = 100, type: String = "dynamic") -> String {
        let mass = type == "dynamic" ? #", "mass": 1"# : ""
        return
            #"{"id": "\#(id)", "type": "\#(type)", "position": [\#(x), \#(y)], "shapes": [{"circle": {"radius": 5}\#(mass)}]}"#
    }

    static func expectRefused(
        _ text: String, at path: String, saying words: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let error = loadError(text) else {
            Issue.record("loaded; expected a refusal at \(path)", sourceLocation: sourceLocation)
            return
        }
        let line = "\(error)"
        #expect(line.contains(": \(path): ") && line.contains(words), "\(line)", sourceLocation: sourceLocation)
        #expect(!line.contains("\n"), "\(line)", sourceLocation: sourceLocation)
    }

    // MARK: - Joints on rotation

    @Test func aRotarySpringOnABodyOfInfiniteMomentIsRefusedAtStart() {
        Self.expectRefused(
            Self.text(
                #""bodies": [\#(Self.rigid("w"))], "joints": [{"dampedRotarySpring": {"a": "w", "b": "static", "restAngle": 0, "stiffness": 10, "damping": 1}}]"#
            ), at: "joints[0].dampedRotarySpring.b", saying: "neither end can turn")
    }

    @Test func everyJointOnRotationNeedsAnEndThatCanTurn() {
        for (kind, parameters) in [
            ("rotaryLimit", #""min": 0, "max": 1"#), ("ratchet", #""phase": 0, "ratchet": 0.1"#),
            ("gear", #""phase": 0, "ratio": 1"#), ("simpleMotor", #""rate": 1"#),
        ] {
            Self.expectRefused(
                Self.text(
                    #""bodies": [\#(Self.rigid("w"))], "joints": [{"\#(kind)": {"a": "w", "b": "static", \#(parameters)}}]"#
                ), at: "joints[0].\(kind).b", saying: "neither end can turn")
        }
        // A dynamic body of finite moment at the other end turns: accepted.
        #expect(
            loadError(
                Self.text(
                    #""bodies": [\#(Self.rigid("w")), \#(Self.ball("b", x: 150))], "joints": [{"gear": {"a": "w", "b": "b", "phase": 0, "ratio": 1}}]"#
                )) == nil)
    }

    @Test func aRotarySpringAddedByTheTimelineToABodyOfInfiniteMomentIsRefused() {
        Self.expectRefused(
            Self.text(
                #""bodies": [\#(Self.rigid("w"))], "timeline": [{"t": 0.1, "joint": {"id": "j", "dampedRotarySpring": {"a": "w", "b": "static", "restAngle": 0, "stiffness": 10, "damping": 1}}}]"#
            ), at: "timeline[0].joint.dampedRotarySpring.b", saying: "neither end can turn")
    }

    // MARK: - Joints and types that change

    @Test func aTimelineJointBetweenBodiesASetMadeKinematicIsRefused() {
        Self.expectRefused(
            Self.text(
                #"""
                "bodies": [\#(Self.ball("a")), \#(Self.ball("b", x: 150))],
                "timeline": [{"t": 0.1, "set": {"body": "a", "type": "kinematic"}}, {"t": 0.1, "set": {"body": "b", "type": "static"}},
                             {"t": 0.2, "joint": {"id": "j", "pivot": {"a": "a", "b": "b", "anchor": [125, 100]}}}]
                """#), at: "timeline[2].joint.pivot.b",
            saying: #"neither end is a dynamic body at step 24 (t = 0.2) (a is "a" (kinematic), b is "b" (static))"#)
    }

    @Test func aTimelineJointOnRotationToABodyASetMadeStaticIsRefused() {
        Self.expectRefused(
            Self.text(
                #"""
                "bodies": [\#(Self.rigid("w")), \#(Self.ball("b", x: 150))],
                "timeline": [{"t": 0.1, "set": {"body": "b", "type": "static"}},
                             {"t": 0.2, "joint": {"id": "j", "simpleMotor": {"a": "w", "b": "b", "rate": 1}}}]
                """#), at: "timeline[1].joint.simpleMotor.b", saying: "neither end can turn")
    }

    @Test func aSetThatLeavesAJointWithoutADynamicEndIsRefused() {
        Self.expectRefused(
            Self.text(
                #"""
                "bodies": [\#(Self.ball("a"))], "joints": [{"id": "j", "pivot": {"a": "a", "b": "static", "anchor": [100, 120]}}],
                "timeline": [{"t": 0.1, "set": {"body": "a", "type": "kinematic"}}]
                """#), at: "timeline[0].set.type", saying: #"joint "j" would hold two bodies of infinite mass"#)
        // Once the joint is removed, the same set is accepted.
        #expect(
            loadError(
                Self.text(
                    #"""
                    "bodies": [\#(Self.ball("a"))], "joints": [{"id": "j", "pivot": {"a": "a", "b": "static", "anchor": [100, 120]}}],
                    "timeline": [{"t": 0.05, "removeJoint": "j"}, {"t": 0.1, "set": {"body": "a", "type": "kinematic"}}]
                    """#)) == nil)
    }

    @Test func aSetThatLeavesAJointOnRotationWithoutAnEndThatTurnsIsRefused() {
        Self.expectRefused(
            Self.text(
                #"""
                "bodies": [\#(Self.rigid("w")), \#(Self.ball("b", x: 150))],
                "joints": [{"id": "g", "gear": {"a": "w", "b": "b", "phase": 0, "ratio": 1}}],
                "timeline": [{"t": 0.1, "set": {"body": "b", "type": "kinematic"}}]
                """#), at: "timeline[0].set.type", saying: "could turn neither end")
    }

    // MARK: - Sleep, hash and caps

    @Test func aSpawnedKinematicBodyWithSleepThresholdZeroIsRefused() {
        Self.expectRefused(
            Self.text(
                #""timeline": [{"t": 0, "spawn": \#(Self.ball("k", type: "kinematic"))}]"#,
                world: #", "sleepTimeThreshold": 0"#),
            at: "world.sleepTimeThreshold", saying: #""k" spawned by timeline[0]"#)
        Self.expectRefused(
            Self.text(
                #""bodies": [\#(Self.ball("b"))], "timeline": [{"t": 0.5, "set": {"body": "b", "type": "kinematic"}}]"#,
                world: #", "sleepTimeThreshold": 0"#),
            at: "world.sleepTimeThreshold", saying: #""b" made kinematic by timeline[0]"#)
    }

    @Test func hundredsOfSpawnsAtOnePointAreRefused() {
        func spawn(_ id: String, x: Int = 100) -> String { #"{"t": 0, "spawn": \#(Self.ball(id, x: x))}"# }
        let atOnePoint = (0..<200).map { spawn("b\($0)") }.joined(separator: ", ")
        Self.expectRefused(
            Self.text(#""timeline": [\#(atOnePoint)]"#), at: "timeline[170].spawn",
            saying: "more than 10000 pairs of spawned bodies overlap")
        // A kinematic emitter whose bodies stay where they are spawned puts them at one point too.
        let kinematic = Self.ball("k", type: "kinematic")
        Self.expectRefused(
            Self.text(#""timeline": [{"t": 0, "every": 0.0009, "count": 1000, "spawn": \#(kinematic)}]"#),
            at: "timeline[0].spawn", saying: "the bodies of timeline[0] overlap each other")
        // Spawns side by side do not overlap: accepted.
        let row = (0..<15).map { spawn("r\($0)", x: 10 + 12 * $0) }.joined(separator: ", ")
        #expect(loadError(Self.text(#""timeline": [\#(row)]"#)) == nil)
    }

    @Test func aSpawnCountMultipliesTheShapeCap() {
        let shapes = (0..<1000).map { #"{"circle": {"radius": 1, "offset": [\#($0 % 100), 0]}}"# }
        let body =
            #"{"id": "m", "type": "static", "position": [100, 100], "shapes": [\#(shapes.joined(separator: ", "))]}"#
        Self.expectRefused(
            Self.text(#""timeline": [{"t": 0, "every": 0.00001, "count": 100000, "spawn": \#(body)}]"#),
            at: "timeline[0].count", saying: "more than 1000000 shapes in all")
    }

    @Test func spawnedBodiesCountAgainstTheSpatialHashsCells() {
        Self.expectRefused(
            Self.text(
                #""timeline": [{"t": 0.1, "every": 0.01, "count": 50, "spawn": {"id": "big", "type": "static", "position": [100, 100], "shapes": [{"circle": {"radius": 400}}]}}]"#,
                world: #", "spatialIndex": {"hash": {"cellSize": 0.5}}"#),
            at: "world.spatialIndex.hash.cellSize", saying: #"body "big" spawned by timeline[0] would cover"#)
    }

    @Test func aSpawnOrAMoveBeyondTheSpatialHashsRangeIsRefused() {
        let world = #", "spatialIndex": {"hash": {"cellSize": 0.001}}"#
        let small =
            #"{"format": "tiltbox-scenario/1", "world": {"size": [1, 1]\#(world)}, "walls": {"box": false}, "duration": 1, "#
        Self.expectRefused(
            small
                + #""timeline": [{"t": 0.1, "spawn": {"id": "far", "type": "static", "position": [5e6, 0], "shapes": [{"circle": {"radius": 0.1}}]}}]}"#,
            at: "world.spatialIndex.hash.cellSize", saying: #"body "far" spawned by timeline[0] reaches"#)
        Self.expectRefused(
            small
                + #""bodies": [{"id": "b", "position": [0.5, 0.5], "shapes": [{"circle": {"radius": 0.1}, "mass": 1}]}], "timeline": [{"t": 0.1, "set": {"body": "b", "position": [5e6, 0]}}]}"#,
            at: "world.spatialIndex.hash.cellSize", saying: #"body "b" moved by timeline[0] reaches"#)
    }

    @Test func anImpulseThatWouldPassTheSpeedBoundIsRefused() {
        // 1e12 on a mass of 1e-9: 1e21 units/s, and Chipmunk's spatial hash never finished the next step.
        let light = #"{"id": "c", "position": [100, 100], "size": [1, 1], "mass": 1e-9}"#
        Self.expectRefused(
            Self.text(
                #""crates": [\#(light)], "timeline": [{"t": 0, "impulse": {"body": "c", "impulse": [-1e12, 1]}}]"#),
            at: "timeline[0].impulse.impulse", saying: "a change of speed of 1e+21, more than 10000000")
        #expect(
            loadError(
                Self.text(
                    #""crates": [\#(light)], "timeline": [{"t": 0, "impulse": {"body": "c", "impulse": [0, 1e-3]}}]"#))
                == nil)
    }
}
