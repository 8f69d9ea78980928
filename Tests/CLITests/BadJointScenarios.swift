/// Every refusal of `joints` (docs/formats.md §5): values Chipmunk would assert on or turn
/// into a non-finite state, and ids that name nothing. Run through the built binary by
/// `BadScenarioTests` (exit 2, the file, the field path and the reason).
extension BadScenario {
    /// Two crates, `c0` and `c1`, and `joints`.
    static func withJoints(_ joints: String) -> String {
        with(
            #""crates": [{"id": "c0", "position": [100, 100]}, {"id": "c1", "position": [200, 100]}], "joints": ["#
                + joints + "]")
    }

    static func joint(_ name: String, _ joints: String, path: String, reason: String, alsoRun: Bool = false)
        -> BadScenario
    {
        BadScenario(name: "joint-" + name, json: withJoints(joints), path: path, alsoRun: alsoRun, reason: reason)
    }

    static let joints: [BadScenario] = [
        joint(
            "unknown-id", #"{"pin": {"a": "c0", "b": "c_1", "anchorA": [0, 0], "anchorB": [0, 0]}}"#,
            path: "joints[0].pin.b", reason: #"no crate or body has the id "c_1" (did you mean "c1"?)"#, alsoRun: true),
        joint(
            "same-body", #"{"pivot": {"a": "c0", "b": "c0", "anchor": [100, 100]}}"#,
            path: "joints[0].pivot.b", reason: "must be different bodies", alsoRun: true),
        joint(
            "both-static", #"{"rotaryLimit": {"a": "static", "b": "static", "min": 0, "max": 1}}"#,
            path: "joints[0].rotaryLimit.b", reason: "both ends are \"static\""),
        joint(
            "missing-a", #"{"simpleMotor": {"b": "c0", "rate": 1}}"#,
            path: "joints[0].simpleMotor.a", reason: "missing required key \"a\""),
        joint(
            "non-finite-anchor", #"{"pin": {"a": "c0", "b": "c1", "anchorA": [1e999, 0], "anchorB": [0, 0]}}"#,
            path: "joints[0].pin.anchorA[0]", reason: "too large to represent", alsoRun: true),
        joint(
            "non-finite-rate", #"{"simpleMotor": {"a": "c0", "b": "static", "rate": -1e400}}"#,
            path: "joints[0].simpleMotor.rate", reason: "too large to represent"),
        joint(
            "negative-max-force", #"{"simpleMotor": {"a": "c0", "b": "static", "rate": 1, "maxForce": -1}}"#,
            path: "joints[0].simpleMotor.maxForce", reason: "must be ≥ 0", alsoRun: true),
        joint(
            "negative-max-bias", #"{"gear": {"a": "c0", "b": "c1", "phase": 0, "ratio": 1, "maxBias": -0.5}}"#,
            path: "joints[0].gear.maxBias", reason: "must be ≥ 0"),
        joint(
            "error-bias-above-one", #"{"pivot": {"a": "c0", "b": "static", "anchor": [100, 120], "errorBias": 1.5}}"#,
            path: "joints[0].pivot.errorBias", reason: "must be ≥ 0 and ≤ 1", alsoRun: true),
        joint(
            "negative-error-bias", #"{"pivot": {"a": "c0", "b": "static", "anchor": [100, 120], "errorBias": -0.1}}"#,
            path: "joints[0].pivot.errorBias", reason: "must be ≥ 0 and ≤ 1"),
        joint(
            "collide-not-bool", #"{"pivot": {"a": "c0", "b": "c1", "anchor": [150, 100], "collideBodies": 1}}"#,
            path: "joints[0].pivot.collideBodies", reason: "expected true or false"),
        joint(
            "slide-min-above-max",
            #"{"slide": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchorB": [0, 0], "min": 50, "max": 40}}"#,
            path: "joints[0].slide.max", reason: "must be ≥ min", alsoRun: true),
        joint(
            "slide-negative-min",
            #"{"slide": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchorB": [0, 0], "min": -1, "max": 40}}"#,
            path: "joints[0].slide.min", reason: "must be ≥ 0"),
        joint(
            "rotary-limit-min-above-max", #"{"rotaryLimit": {"a": "c0", "b": "static", "min": 1, "max": -1}}"#,
            path: "joints[0].rotaryLimit.max", reason: "must be ≥ min", alsoRun: true),
        joint(
            "ratchet-zero", #"{"ratchet": {"a": "c0", "b": "c1", "phase": 0, "ratchet": 0}}"#,
            path: "joints[0].ratchet.ratchet", reason: "|ratchet| must be ≥ 1e-06", alsoRun: true),
        joint(
            "ratchet-tiny", #"{"ratchet": {"a": "c0", "b": "c1", "phase": 0, "ratchet": 1e-300}}"#,
            path: "joints[0].ratchet.ratchet", reason: "|ratchet| must be ≥ 1e-06"),
        joint(
            "groove-nearly-no-length",
            #"{"groove": {"a": "c0", "b": "c1", "grooveA": [5, 5], "grooveB": [5, 5.000000000000001], "anchorB": [0, 0]}}"#,
            path: "joints[0].groove.grooveB", reason: "the groove has no length"),
        // A 0.001 crate held 1000 units out: Chipmunk's k_tensor would lose its mass (abort risk).
        BadScenario(
            name: "joint-anchor-out-of-reach",
            json: with(
                #""crates": [{"id": "t", "position": [100, 100], "size": [0.001, 0.001]}], "joints": ["#
                    + #"{"pivot": {"a": "static", "b": "t", "anchorA": [100, 100], "anchorB": [1000, 0]}}]"#),
            path: "joints[0].pivot.anchorB", alsoRun: true, reason: "this body's mass and moment allow"),
        BadScenario(
            name: "joint-world-anchor-out-of-reach",
            json: with(
                #""crates": [{"id": "t", "position": [100, 100], "size": [0.001, 0.001]}], "joints": ["#
                    + #"{"pivot": {"a": "static", "b": "t", "anchor": [300, 100]}}]"#),
            path: "joints[0].pivot.anchor", reason: "lies 200 from its body's centre of gravity"),
        joint(
            "groove-end-out-of-reach",
            #"{"groove": {"a": "c0", "b": "c1", "grooveA": [0, 0], "grooveB": [1e6, 0], "anchorB": [0, 0]}}"#,
            path: "joints[0].groove.grooveB", reason: "lies 1000000 from its body's centre of gravity"),
        joint(
            "gear-ratio-zero", #"{"gear": {"a": "c0", "b": "c1", "phase": 0, "ratio": 0}}"#,
            path: "joints[0].gear.ratio", reason: "|ratio| must be ≥ 1e-06", alsoRun: true),
        joint(
            "gear-ratio-tiny", #"{"gear": {"a": "c0", "b": "c1", "phase": 0, "ratio": -1e-300}}"#,
            path: "joints[0].gear.ratio", reason: "|ratio| must be ≥"),
        joint(
            "groove-no-length",
            #"{"groove": {"a": "c0", "b": "c1", "grooveA": [5, 5], "grooveB": [5, 5], "anchorB": [0, 0]}}"#,
            path: "joints[0].groove.grooveB", reason: "the groove has no length", alsoRun: true),
        joint(
            "pin-no-length", #"{"pin": {"a": "c0", "b": "c1", "anchorA": [50, 0], "anchorB": [-50, 0]}}"#,
            path: "joints[0].pin.anchorB", reason: "the pin's anchors coincide", alsoRun: true),
        joint(
            "pin-no-length-to-world", #"{"pin": {"a": "static", "b": "c0", "anchorA": [100, 100], "anchorB": [0, 0]}}"#,
            path: "joints[0].pin.anchorB", reason: "use a \"pivot\" joint"),
        joint(
            "spring-negative-stiffness",
            #"{"dampedSpring": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchorB": [0, 0], "#
                + #""restLength": 10, "stiffness": -5, "damping": 1}}"#,
            path: "joints[0].dampedSpring.stiffness", reason: "must be ≥ 0"),
        joint(
            "spring-negative-rest-length",
            #"{"dampedSpring": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchorB": [0, 0], "#
                + #""restLength": -10, "stiffness": 5, "damping": 1}}"#,
            path: "joints[0].dampedSpring.restLength", reason: "must be ≥ 0"),
        joint(
            "rotary-spring-negative-damping",
            #"{"dampedRotarySpring": {"a": "c0", "b": "c1", "restAngle": 0, "stiffness": 5, "damping": -1}}"#,
            path: "joints[0].dampedRotarySpring.damping", reason: "must be ≥ 0"),
        joint(
            "unknown-kind", #"{"pinn": {"a": "c0", "b": "c1"}}"#,
            path: "joints[0].pinn", reason: #"unknown key "pinn" (did you mean "pin"?)"#),
        joint(
            "two-kinds", #"{"pin": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchorB": [0, 0]}, "gear": {}}"#,
            path: "joints[0]", reason: "exactly one key naming its kind"),
        joint(
            "unknown-parameter", #"{"pin": {"a": "c0", "b": "c1", "anchorA": [0, 0], "anchor": [0, 0]}}"#,
            path: "joints[0].pin.anchor", reason: "unknown key \"anchor\""),
        joint(
            "pivot-anchor-and-anchors",
            #"{"pivot": {"a": "c0", "b": "c1", "anchor": [150, 100], "anchorA": [0, 0], "anchorB": [0, 0]}}"#,
            path: "joints[0].pivot.anchorA", reason: "not both"),
        joint(
            "pivot-no-anchor", #"{"pivot": {"a": "c0", "b": "c1"}}"#,
            path: "joints[0].pivot.anchor", reason: "missing key \"anchor\""),
        joint("not-an-object", #""pin""#, path: "joints[0]", reason: "expected an object"),
        BadScenario(
            name: "joint-neither-end-dynamic",
            json: with(
                #""bodies": [{"id": "k", "type": "kinematic", "position": [100, 100], "#
                    + #""shapes": [{"circle": {"radius": 5}}]}], "#
                    + #""joints": [{"pivot": {"a": "k", "b": "static", "anchor": [100, 100]}}]"#),
            path: "joints[0].pivot.b", alsoRun: true, reason: "neither end is a dynamic body"),
        BadScenario(
            name: "joint-anchor-out-of-reach-on-a-body",
            json: with(
                #""bodies": [{"id": "dot", "position": [100, 100], "#
                    + #""shapes": [{"circle": {"radius": 0.01}, "mass": 1}]}], "#
                    + #""joints": [{"pin": {"a": "dot", "b": "static", "anchorA": [1000, 0], "anchorB": [50, 50]}}]"#),
            path: "joints[0].pin.anchorA", reason: "this body's mass and moment allow"),
        BadScenario(
            name: "joints-not-an-array", json: with(#""joints": {"pin": {}}"#), path: "joints",
            reason: "expected an array"),
    ]
}
