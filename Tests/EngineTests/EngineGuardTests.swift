import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Issue 23's run-time guards and engine fixes, in this process: a Chipmunk abort here
/// would end the whole test run, so each of these fails loudly if its guard is gone.
@Suite struct EngineGuardTests {
    // MARK: - Spatial hash range, checked in the per-step scan

    static func hashWorld() throws -> World {
        let text = """
            {"format": "tiltbox-scenario/1", "world": {"size": [100, 100], "spatialIndex": {"hash": {"cellSize": 1, "count": 100}}},
             "walls": {"box": false}, "crates": [{"id": "c", "position": [50, 50], "size": [2, 2]}]}
            """
        return World(scenario: try ScenarioLoader.parse(text: text, file: "h.json", baseDirectory: nil))
    }

    static func divergence(in world: World, x: Double, vx: Double = 0) -> WorldDivergence? {
        let state = [x, 50, 0, vx, 0, 0]
        return state.withUnsafeBufferPointer { world.firstDivergence(in: $0) }
    }

    @Test func aBodyMayComeWithinItsReachOfTheHashsIndexLimitButNoFarther() throws {
        let world = try Self.hashWorld()
        let limit = World.hashIndexLimit(cellSize: 1)
        #expect(limit == 1_073_741_824)
        let reach = 2.0.squareRoot() // half the 2 × 2 crate's diagonal
        #expect(Self.divergence(in: world, x: -(limit - reach - 1)) == nil)
        let past = try #require(Self.divergence(in: world, x: -(limit - reach + 1)))
        #expect(past.bodyID == "c" && past.field == "x" && past.indexLimit == limit, "\(past)")
        #expect(past.description.contains("spatial hash"), "\(past)")
        // The next step's motion counts: 120 units/s for 1/120 s is one more unit.
        #expect(Self.divergence(in: world, x: -(limit - reach - 1), vx: -240) != nil)
        #expect(Self.divergence(in: world, x: limit - reach - 1, vx: 60) == nil)
    }

    @Test func theBoundingBoxTreeHasNoIndexLimit() throws {
        let text = """
            {"format": "tiltbox-scenario/1", "world": {"size": [100, 100]}, "walls": {"box": false},
             "crates": [{"id": "c", "position": [50, 50], "size": [2, 2]}]}
            """
        let world = World(scenario: try ScenarioLoader.parse(text: text, file: "b.json", baseDirectory: nil))
        #expect(Self.divergence(in: world, x: -1e99) == nil)
        #expect(Self.divergence(in: world, x: -1e101)?.indexLimit == nil)
    }

    // MARK: - A non-finite state: stopped, and the world still frees cleanly

    /// What the loader now refuses (a body of mass 2e-300 on a world pivot), built past it: it
    /// falls onto the floor and the contact gives it a NaN velocity at step 40. The run stops
    /// there; dropping the world must not abort in `cpBodySanityCheck` (removing its shape
    /// recomputes the mass and calls `cpBodySetPosition`), as it did before.
    @Test func aRunThatReachesANaNVelocityStopsAndItsWorldIsFreedWithoutAnAbort() throws {
        let shape = ShapeSpec(geometry: .segment(from: .zero, to: Vec2(1, 0), radius: 1e-300), mass: .density(1))
        let scenario = Scenario(
            name: "tiny", world: WorldSettings(size: Vec2(100, 100)), duration: 1,
            bodies: [BodySpec(id: "tiny", position: Vec2(50, 50), shapes: [shape])],
            joints: [JointSpec(parameters: .pivot(.world(Vec2(50, 50))), a: .body("tiny"), b: .world)])
        let summary = try ScenarioRunner.run(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity),
            options: RunOptions(), tracePath: nil, shouldStop: { false })
        guard case .diverged(let step, let divergence) = summary.outcome else {
            Issue.record("expected a divergence, got \(summary.outcome)")
            return
        }
        #expect(step == 40, "\(divergence)")
        #expect(divergence.bodyID == "tiny" && divergence.value.isNaN, "\(divergence)")
        // The session and its world are gone by now; an abort in their teardown would have ended this process.
    }

    // MARK: - Sleeping with a kinematic body

    static func touchingKinematic(threshold: String) -> String {
        """
        {"format": "tiltbox-scenario/1", "world": {"size": [400, 200], "sleepTimeThreshold": \(threshold)},
         "crates": [{"id": "rider", "position": [100, 56], "size": [20, 20]}],
         "bodies": [{"id": "platform", "type": "kinematic", "position": [100, 40], "velocity": [30, 0],
                     "shapes": [{"box": {"size": [120, 16]}}]}]}
        """
    }

    /// Chipmunk resets the idle time of a kinematic body touching a body it wakes to 0, and
    /// sleeps a group whose idle times are not below the threshold: with the smallest positive
    /// threshold, 0 stays below it, so the kinematic body is never put to sleep (which aborts).
    @Test func aKinematicBodyTouchingACrateRunsWithTheSmallestPositiveSleepThreshold() throws {
        let text = Self.touchingKinematic(threshold: "5e-324")
        let world = World(scenario: try ScenarioLoader.parse(text: text, file: "k.json", baseDirectory: nil))
        for _ in 0..<240 { world.step(dt: 1.0 / 120) }
        #expect(abs(world.bodies[1].state.position.x - 160) < 1e-6, "\(world.bodies[1].state)")
        #expect(world.bodies[0].state.position.y > 40, "\(world.bodies[0].state)")
    }

    @Test func aSleepThresholdOfZeroIsRefusedOnlyWithAKinematicBody() throws {
        let error = try #require(throws: InputError.self) {
            try ScenarioLoader.parse(text: Self.touchingKinematic(threshold: "0"), file: "k.json", baseDirectory: nil)
        }
        #expect(
            error.path == "world.sleepTimeThreshold" && error.reason.contains("kinematic body (\"platform\")"),
            "\(error)")
        let withoutKinematic = """
            {"format": "tiltbox-scenario/1", "world": {"size": [400, 200], "sleepTimeThreshold": 0},
             "crates": [{"id": "rider", "position": [100, 56], "size": [20, 20]}]}
            """
        #expect(throws: Never.self) {
            try ScenarioLoader.parse(text: withoutKinematic, file: "d.json", baseDirectory: nil)
        }
    }

    // MARK: - Chipmunk's messages

    @Test func capturedMessagesAreCountedAndTheFirstIsKeptWhole() {
        var diagnostics = EngineDiagnostics()
        let text =
            "Chipmunk warning: High EPA iterations: 26\n\tFailed condition: iteration < WARN_EPA_ITERATIONS\n"
            + "\tSource:./src/cpCollision.c:329\nChipmunk warning: High GJK iterations: 31\n\tFailed condition: x\n\tSource:y:1\n"
        ChipmunkMessageCapture.record(text, step: 7, into: &diagnostics)
        ChipmunkMessageCapture.record("Chipmunk warning: again\n\tSource:z:2\n", step: 9, into: &diagnostics)
        #expect(diagnostics.count == 3)
        #expect(diagnostics.firstStep == 7)
        #expect(
            diagnostics.first == "Chipmunk warning: High EPA iterations: 26; Failed condition: iteration < "
                + "WARN_EPA_ITERATIONS; Source:./src/cpCollision.c:329")
        #expect(
            diagnostics.summary?.hasPrefix("Chipmunk printed 3 diagnostic messages; the first during step 7: ") == true)
        #expect(EngineDiagnostics().summary == nil)
    }
}
