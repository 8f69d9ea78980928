import Testing

@_spi(Tools) @testable import Tiltbox

/// Issue 23's load-time limits at their edges: accepted just inside, refused just outside,
/// with the field path the refusal names.
@Suite struct EngineLimitBoundaryTests {
    static let limits = ScenarioLimits()

    /// The error's field path, or `nil` when the text loads.
    static func refusal(_ text: String) -> String? {
        loadError(text).map { "\($0.path ?? "") \($0.reason)" }
    }

    // MARK: - Body mass and moment

    static func boxBody(density: Double) -> String {
        scenarioText(
            #""bodies": [{"id": "b", "position": [100, 100], "shapes": [{"box": {"size": [1, 1]}, "density": \#(density)}]}]"#
        )
    }

    @Test func aDynamicBodysMassMayBeTheFloorButNotBelowIt() throws {
        #expect(Self.refusal(Self.boxBody(density: Self.limits.minMass)) == nil)
        let refused = try #require(Self.refusal(Self.boxBody(density: Self.limits.minMass.nextDown)))
        #expect(refused.hasPrefix("bodies[0].shapes ") && refused.contains("less than 1e-09"), "\(refused)")
    }

    /// A unit mass in a circle of radius 1 (I = 1/2) with a massless arm of length L:
    /// reach² · m / I = 2L², at most 1e9, so L ≤ 22 360.68.
    static func whip(arm: Double) -> String {
        scenarioText(
            #"""
            "bodies": [{"id": "w", "position": [100, 100], "shapes": [{"circle": {"radius": 1}, "mass": 1},
              {"segment": {"from": [0, 0], "to": [\#(arm), 0], "radius": 0}}]}]
            """#)
    }

    @Test func aBodysReachSquaredTimesMassOverMomentMayBeOneBillionButNoMore() throws {
        #expect(Self.refusal(Self.whip(arm: 22_360)) == nil)
        let refused = try #require(Self.refusal(Self.whip(arm: 22_361)))
        #expect(
            refused.hasPrefix("bodies[0].shapes ") && refused.contains("too small a moment of inertia"), "\(refused)")
    }

    // MARK: - Springs

    /// A 2 × 2 crate of mass 1 (I = 2/3, k = 1.5) on a rotary spring at 120 Hz:
    /// stiffness × dt² × k ≤ 4 allows up to 38 400.
    static func rotarySpring(_ stiffness: Double, hz: Double = 120) -> String {
        scenarioText(
            #"""
            "timestep": {"hz": \#(hz)},
            "crates": [{"id": "c", "position": [100, 100], "size": [2, 2]}],
            "joints": [{"dampedRotarySpring": {"a": "c", "b": "static", "restAngle": 0, "stiffness": \#(stiffness), "damping": 1e15}}]
            """#)
    }

    @Test func aRotarySpringMayBeAsStiffAsTheStepIntegratesButNoStiffer() throws {
        #expect(Self.refusal(Self.rotarySpring(38_399)) == nil)
        let refused = try #require(Self.refusal(Self.rotarySpring(38_401)))
        #expect(
            refused.hasPrefix("joints[0].dampedRotarySpring.stiffness ") && refused.contains("at most 38400"),
            "\(refused)")
        // Ten times the rate allows a hundred times the stiffness.
        #expect(Self.refusal(Self.rotarySpring(3_839_000, hz: 1200)) == nil)
    }

    /// Two unit crates 2 × 2 on a spring with anchors at their centres: k = 1 + 1 = 2, so at
    /// 120 Hz stiffness × k / 14 400 ≤ 4 allows up to 28 800; anchors off centre lower it.
    static func linearSpring(_ stiffness: Double, anchor: Double = 0) -> String {
        scenarioText(
            #"""
            "crates": [{"id": "a", "position": [100, 100], "size": [2, 2]}, {"id": "b", "position": [110, 100], "size": [2, 2]}],
            "joints": [{"dampedSpring": {"a": "a", "b": "b", "anchorA": [\#(anchor), 0], "anchorB": [0, 0],
                         "restLength": 10, "stiffness": \#(stiffness), "damping": 0}}]
            """#)
    }

    @Test func aDampedSpringsBoundCountsBothMassesAndItsAnchorsLeverage() throws {
        #expect(Self.refusal(Self.linearSpring(28_799)) == nil)
        let refused = try #require(Self.refusal(Self.linearSpring(28_801)))
        #expect(refused.hasPrefix("joints[0].dampedSpring.stiffness "), "\(refused)")
        // Anchor 1 off centre: k = 2 + 1 · 1.5 = 3.5, at most 16 457.
        #expect(Self.refusal(Self.linearSpring(16_456, anchor: 1)) == nil)
        #expect(Self.refusal(Self.linearSpring(16_458, anchor: 1)) != nil)
    }

    // MARK: - Contact persistence

    static func grid(columns: Int, rows: Int = 1, persistence: Int) -> String {
        scenarioText(
            world: #""size": [6000, 400], "collisionPersistence": \#(persistence)"#,
            #"""
            "grids": [{"origin": [20, 20], "columns": \#(columns), "rows": \#(rows), "spacing": [35, 35]}]
            """#)
    }

    @Test func collisionPersistenceMayBeAThousandStepsButNoMore() throws {
        #expect(Self.refusal(Self.grid(columns: 10, persistence: 1000)) == nil)
        let refused = try #require(Self.refusal(Self.grid(columns: 10, persistence: 1001)))
        #expect(refused.hasPrefix("world.collisionPersistence "), "\(refused)")
    }

    @Test func persistenceTimesDynamicShapesMayBeAMillionButNoMore() throws {
        #expect(Self.refusal(Self.grid(columns: 100, rows: 10, persistence: 1000)) == nil)
        let refused = try #require(Self.refusal(Self.grid(columns: 143, rows: 7, persistence: 1000)))
        #expect(
            refused.hasPrefix("world.collisionPersistence ")
                && refused.contains("1000 steps × 1001 dynamic shapes = 1001000") && refused.contains("at most 999 "),
            "\(refused)")
    }

    @Test func chipmunksDefaultPersistenceIsNeverRefused() throws {
        #expect(Self.refusal(Self.grid(columns: 143, rows: 7, persistence: 3)) == nil)
    }

    // MARK: - Spatial hash extent

    static func farSegment(cellSize: Double) -> String {
        scenarioText(
            world: #""size": [100, 100], "spatialIndex": {"hash": {"cellSize": \#(cellSize), "count": 100}}"#,
            #"""
            "walls": {"box": false}, "segments": [{"from": [-1e7, 0], "to": [-1e7, 0.01], "radius": 0}]
            """#)
    }

    @Test func aSpatialHashMustIndexEveryShapeWithinTwoToTheThirtyCells() throws {
        // 1e7 / 2^30 = 0.0093132257...
        #expect(Self.refusal(Self.farSegment(cellSize: 0.00932)) == nil)
        let refused = try #require(Self.refusal(Self.farSegment(cellSize: 0.00931)))
        #expect(
            refused.hasPrefix("world.spatialIndex.hash.cellSize ") && refused.contains("beyond 2^30 cells"),
            "\(refused)")
    }
}
