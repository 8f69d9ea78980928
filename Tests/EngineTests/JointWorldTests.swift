import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// What `World` makes of `joints`: the settings Chipmunk ends up with, the anchors it
/// holds (read back for the trace header), and joints that hold while the world runs.
@Suite struct JointWorldTests {
    static func scenario(crates: String, joints: String) throws -> Scenario {
        let text = """
            {"format": "tiltbox-scenario/1", "name": "j", "world": {"size": [480, 320]},
             "crates": [\(crates)], "joints": [\(joints)]}
            """
        return try ScenarioLoader.parse(text: text, file: "j.json", baseDirectory: nil)
    }

    @Test func absentSettingsKeepChipmunksDefaultsAndGivenOnesReachItExactly() throws {
        let scenario = try Self.scenario(
            crates: #"{"id": "a", "position": [100, 100]}"#,
            joints: """
                {"simpleMotor": {"a": "a", "b": "static", "rate": 1}},
                {"simpleMotor": {"a": "a", "b": "static", "rate": 1, "maxForce": 12.5, "errorBias": 0.1, "maxBias": 3,
                                 "collideBodies": false}}
                """)
        let settings = World(scenario: scenario).jointSettings
        try #require(settings.count == 2)
        #expect(settings[0].maxForce == .infinity)
        #expect(settings[0].maxBias == .infinity)
        // Chipmunk's cpfpow(1.0f - 0.1f, 60.0f): the float 0.9f, raised in double.
        #expect(settings[0].errorBias.bitPattern == pow(Double(Float(1) - Float(0.1)), 60).bitPattern)
        #expect(settings[0].errorBias == 0.0017970074436457143)
        #expect(settings[0].collideBodies)
        #expect(settings[1] == JointSettings(maxForce: 12.5, errorBias: 0.1, maxBias: 3, collideBodies: false))
    }

    @Test func aWorldPivotIsConvertedIntoEachBodysCoordinatesAtCreation() throws {
        // A crate turned a quarter turn: the world point 20 above its centre is (20, 0) in its own frame.
        let scenario = try Self.scenario(
            crates: #"{"id": "a", "position": [100, 100], "angle": 1.5707963267948966}"#,
            joints: #"{"pivot": {"a": "static", "b": "a", "anchor": [100, 120]}}"#)
        let outline = try #require(World(scenario: scenario).jointOutlines.first)
        #expect(outline.kind == "pivot" && outline.a == "static" && outline.b == "a")
        #expect(outline.anchorA == Vec2(100, 120), "the static body's coordinates are the world's")
        #expect(abs(outline.anchorB.x - 20) < 1e-12 && abs(outline.anchorB.y) < 1e-12, "\(outline.anchorB)")
        #expect(outline.groove == nil)
    }

    @Test func outlinesGiveAnchorsOfEachKindAndZeroForKindsWithout() throws {
        let scenario = try Self.scenario(
            crates: """
                {"id": "a", "position": [100, 100]}, {"id": "b", "position": [200, 100]}
                """,
            joints: """
                {"pin": {"a": "a", "b": "b", "anchorA": [1, 2], "anchorB": [3, 4]}},
                {"pivot": {"a": "a", "b": "b", "anchorA": [5, 6], "anchorB": [7, 8]}},
                {"slide": {"a": "a", "b": "b", "anchorA": [9, 1], "anchorB": [2, 3], "min": 0, "max": 200}},
                {"groove": {"a": "a", "b": "b", "grooveA": [-10, 0], "grooveB": [10, 0], "anchorB": [4, 5]}},
                {"dampedSpring": {"a": "a", "b": "b", "anchorA": [6, 7], "anchorB": [8, 9], "restLength": 1,
                                  "stiffness": 1, "damping": 1}},
                {"gear": {"a": "a", "b": "static", "phase": 0, "ratio": 1}}
                """)
        let outlines = World(scenario: scenario).jointOutlines
        #expect(outlines.map(\.kind) == ["pin", "pivot", "slide", "groove", "dampedSpring", "gear"])
        #expect(outlines.map(\.anchorA) == [Vec2(1, 2), Vec2(5, 6), Vec2(9, 1), .zero, Vec2(6, 7), .zero])
        #expect(outlines.map(\.anchorB) == [Vec2(3, 4), Vec2(7, 8), Vec2(2, 3), Vec2(4, 5), Vec2(8, 9), .zero])
        #expect(outlines[3].groove == [Vec2(-10, 0), Vec2(10, 0)])
        #expect(outlines[5].b == "static")
    }

    @Test func theTraceHeaderHasJointsOnlyWhenTheScenarioHasThem() throws {
        let jointed = try Self.scenario(
            crates: #"{"id": "a", "position": [100, 100]}"#,
            joints: #"{"pivot": {"a": "static", "b": "a", "anchor": [100, 130]}}"#)
        let header = TraceHeader(scenario: jointed, every: 1, duration: 1)
        #expect(header.joints == World(scenario: jointed).jointOutlines)
        #expect(header.joints?.first?.anchorB == Vec2(0, 30))
        var plain = jointed
        plain.joints = []
        #expect(TraceHeader(scenario: plain, every: 1, duration: 1).joints == nil)
    }

    /// The joints act: a pin keeps its length and a pivot its point while a pendulum swings.
    @Test func aPinnedAndAPivotedPendulumKeepTheirJointsWhileSwinging() throws {
        let scenario = try Self.scenario(
            crates: """
                {"id": "pinned", "position": [150, 200]}, {"id": "pivoted", "position": [350, 200]}
                """,
            joints: """
                {"pin": {"a": "static", "b": "pinned", "anchorA": [100, 250], "anchorB": [0, 0]}},
                {"pivot": {"a": "static", "b": "pivoted", "anchor": [300, 250]}}
                """)
        let world = World(scenario: scenario)
        let length = (Vec2(150, 200) - Vec2(100, 250)).length
        var lowest = Double.infinity
        for _ in 0..<240 {
            world.step(dt: 1.0 / 120)
            let pinned = world.states[0].position, pivoted = world.states[1]
            lowest = min(lowest, pinned.y)
            #expect(abs((pinned - Vec2(100, 250)).length - length) < 0.5)
            // The pivot is the crate's local point (-50, 50), rotated with it.
            let c = cos(pivoted.angle), s = sin(pivoted.angle)
            let point = pivoted.position + Vec2(c * -50 - s * 50, s * -50 + c * 50)
            #expect((point - Vec2(300, 250)).length < 0.5)
        }
        #expect(lowest < 190, "the pendulum must swing down")
    }
}
