import Testing

@_spi(Tools) @testable import Tiltbox

/// One body owner and typed joint kinds (issue 24): a world's bodies are one list, crates
/// first, each built the way its definition says; every joint kind's facts agree.
@Suite struct BodyDefinitionTests {
    static let mixed = """
        {"format": "tiltbox-scenario/1", "world": {"size": [400, 300]},
         "crates": [{"id": "c0", "position": [50, 50]}, {"id": "c1", "position": [100, 50], "size": [20, 10], "mass": 3}],
         "bodies": [{"id": "ball", "position": [200, 100], "shapes": [{"circle": {"radius": 8}, "mass": 2}]},
                    {"id": "shelf", "type": "static", "position": [300, 40], "shapes": [{"box": {"size": [60, 4]}}]}]}
        """

    @Test func theWorldListsCratesThenBodiesInTraceOrderEachNamedByHowItWasBuilt() throws {
        let scenario = try ScenarioLoader.parse(text: Self.mixed, file: "m.json", baseDirectory: nil)
        let world = World(scenario: scenario)
        let header = TraceHeader(scenario: scenario, every: 1, duration: 1)
        #expect(world.bodies.map(\.id) == header.bodies)
        #expect(world.bodies.map(\.id) == ["c0", "c1", "ball", "shelf"])
        #expect(world.bodies.map(\.kind) == ["crate", "crate", "body", "body"])
        #expect(world.bodyID(at: 2) == "ball")
    }

    @Test func aCrateIsABodyWithItsGivenMassTheBoxMomentAndItsCentreAtItsOrigin() throws {
        let scenario = try ScenarioLoader.parse(text: Self.mixed, file: "m.json", baseDirectory: nil)
        let crate = World(scenario: scenario).bodies[1]
        #expect(crate.mass == 3)
        let boxMoment: Double = 3 * (20 * 20 + 10 * 10) / 12 // cpMomentForBox(3, 20, 10)
        #expect(crate.moment == boxMoment)
        #expect(crate.centreOfGravity == .zero)
        let definition = scenario.bodyDefinitions[1]
        #expect(definition.build == .crate(mass: 3, size: Vec2(20, 10)))
        #expect(definition.localSize == Vec2(20, 10) && definition.mass == 3)
        #expect(definition.reach == Vec2(20, 10).length / 2)
    }

    @Test func aJointKindIsAngularExactlyWhenItsParametersHaveNoAnchors() {
        let examples: [JointParameters] = [
            .pin(anchorA: .zero, anchorB: Vec2(1, 0)), .pivot(.world(.zero)), .pivot(.local(a: .zero, b: .zero)),
            .slide(anchorA: .zero, anchorB: .zero, min: 0, max: 1),
            .groove(grooveA: .zero, grooveB: Vec2(1, 0), anchorB: .zero),
            .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 1, stiffness: 1, damping: 1),
            .dampedRotarySpring(restAngle: 0, stiffness: 1, damping: 1), .rotaryLimit(min: 0, max: 1),
            .ratchet(phase: 0, ratchet: 1), .gear(phase: 0, ratio: 1), .simpleMotor(rate: 1),
        ]
        #expect(Set(examples.map(\.kind)) == Set(JointKind.allCases), "an example of every kind")
        for parameters in examples {
            #expect(parameters.kind.isAngular == (parameters.anchors == .none), "\(parameters.kind)")
        }
    }

    @Test func everyJointKindIsAScenarioKeyTheLoaderTakes() throws {
        #expect(ScenarioLoader.jointKinds == JointKind.allCases.map(\.rawValue))
        for kind in JointKind.allCases {
            #expect(ScenarioLoader.jointKeys(kind).starts(with: kind.keys))
            #expect(ScenarioLoader.jointKeys(kind).contains("a") && ScenarioLoader.jointKeys(kind).contains("b"))
        }
    }
}
