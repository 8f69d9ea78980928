import Testing

@_spi(Tools) @testable import Tiltbox

/// The broad phase and narrow phase behind the mass-overlap limit and the overlap warnings.
@Suite struct OverlapCensusTests {
    static func scenario(_ crates: [CrateSpec], segments: [SegmentSpec] = [], box: Bool = false) -> Scenario {
        Scenario(
            name: "t", world: WorldSettings(size: Vec2(1000, 1000)), walls: WallSettings(box: box),
            segments: segments, crates: crates)
    }

    @Test func pairsAtOnePointAreCountedOnce() {
        let crates = (0..<10).map { CrateSpec(id: "c\($0)", position: Vec2(500, 500)) }
        let census = OverlapCensus(scenario: Self.scenario(crates), stopAfter: 1000)
        #expect(census.cratePairs == 45)
        #expect(!census.stoppedEarly)
        #expect(census.cratePairExamples.first == OverlapCensus.CratePair(first: 0, second: 1))
    }

    @Test func theCountStopsJustPastTheLimit() {
        let crates = (0..<1000).map { CrateSpec(id: "c\($0)", position: Vec2(500, 500)) }
        let census = OverlapCensus(scenario: Self.scenario(crates), stopAfter: 100)
        #expect(census.stoppedEarly)
        #expect(census.cratePairs == 101)
    }

    @Test func touchingCratesDoNotOverlap() {
        let crates = [
            CrateSpec(id: "a", position: Vec2(100, 100)), CrateSpec(id: "b", position: Vec2(132, 100)),
            CrateSpec(id: "c", position: Vec2(100, 132)),
        ]
        #expect(OverlapCensus(scenario: Self.scenario(crates), stopAfter: 10).cratePairs == 0)
        let closer = [CrateSpec(id: "a", position: Vec2(100, 100)), CrateSpec(id: "b", position: Vec2(131.9, 100))]
        #expect(OverlapCensus(scenario: Self.scenario(closer), stopAfter: 10).cratePairs == 1)
    }

    @Test func rotatedCratesWhoseBoundingBoxesOverlapButNotTheirShapesAreApart() {
        // Two diamonds (32-unit squares at 45°) side by side: their bounding boxes are
        // 45.25 wide and overlap at 44 apart, their corners do not touch until 45.25.
        let a = CrateSpec(id: "a", position: Vec2(100, 100), angle: .pi / 4)
        #expect(
            OverlapCensus(
                scenario: Self.scenario([a, CrateSpec(id: "b", position: Vec2(144, 100), angle: .pi / 4)]),
                stopAfter: 10
            ).cratePairs == 1)
        // Offset by 33 along the diamonds' own axis (past their 32-unit width): bounding boxes overlap, shapes do not.
        let apart = CrateSpec(
            id: "b", position: Vec2(100 + 33 / 2.0.squareRoot(), 100 + 33 / 2.0.squareRoot()), angle: .pi / 4)
        #expect(OverlapCensus(scenario: Self.scenario([a, apart]), stopAfter: 10).cratePairs == 0)
    }

    @Test func cratesOfVeryDifferentSizesAreFoundAcrossSizeClasses() {
        let big = CrateSpec(id: "big", position: Vec2(500, 500), size: Vec2(400, 400))
        let small = (0..<20).map {
            CrateSpec(id: "s\($0)", position: Vec2(310 + Double($0) * 20, 500), size: Vec2(1, 1))
        }
        let census = OverlapCensus(scenario: Self.scenario([big] + small), stopAfter: 100)
        // The big crate spans x from 300 to 700: all twenty small ones (x 310 ... 690) are inside it.
        #expect(census.cratePairs == 20)
    }

    @Test func wallsAndSegmentsCountAsContactsNotAsCratePairs() {
        let crates = [
            CrateSpec(id: "floor", position: Vec2(500, 10)), CrateSpec(id: "free", position: Vec2(500, 500)),
            CrateSpec(id: "ramp", position: Vec2(200, 200)),
        ]
        let ramp = SegmentSpec(from: Vec2(100, 100), to: Vec2(300, 300), radius: 2)
        let census = OverlapCensus(scenario: Self.scenario(crates, segments: [ramp], box: true), stopAfter: 10)
        #expect(census.cratePairs == 0)
        #expect(census.wallContacts == 2)
        #expect(census.wallContactExamples.contains(OverlapCensus.WallContact(crate: 0, segment: 0)))
        #expect(census.wallContactExamples.contains(OverlapCensus.WallContact(crate: 2, segment: 4)))
    }

    @Test func warningsNameTheCratesAndTheAngle() {
        let crates = [
            CrateSpec(id: "a", position: Vec2(100, 100), angle: 45), CrateSpec(id: "b", position: Vec2(110, 100)),
        ]
        let warnings = ScenarioLoader.warnings(for: Self.scenario(crates))
        #expect(
            warnings == [
                #"1 pair of crates overlap at t = 0: "a" and "b""#,
                #"crate "a" has angle 45, more than 2π in magnitude: radians expected"#,
            ])
        #expect(
            ScenarioLoader.warnings(for: Self.scenario([CrateSpec(id: "a", position: Vec2(100, 100), angle: 6.28)]))
                .isEmpty)
    }

    @Test func pairsChipmunkNeverPushesApartAreNotCounted() {
        func crate(_ id: String, _ x: Double, _ collision: ShapeCollision = .none) -> CrateSpec {
            CrateSpec(id: id, position: Vec2(x, 100), collision: collision)
        }
        let group = ShapeCollision(filter: ShapeFilter(group: 3))
        let sensor = ShapeCollision(sensor: true)
        let maskedOut = ShapeCollision(filter: ShapeFilter(categories: 2, mask: 1))
        let floor = SegmentSpec(
            from: Vec2(0, 90), to: Vec2(1000, 90), collision: ShapeCollision(filter: ShapeFilter(categories: 2)))
        let cases: [([CrateSpec], Int, Int)] = [
            ([crate("a", 100), crate("b", 110)], 1, 2),
            ([crate("a", 100, group), crate("b", 110, group)], 0, 2),
            ([crate("a", 100, sensor), crate("b", 110)], 0, 1),
            ([crate("a", 100, maskedOut), crate("b", 110, maskedOut)], 0, 0),
        ]
        for (crates, pairs, walls) in cases {
            let census = OverlapCensus(scenario: Self.scenario(crates, segments: [floor]), stopAfter: 10)
            #expect(census.cratePairs == pairs, "\(crates.map(\.collision))")
            #expect(census.wallContacts == walls, "\(crates.map(\.collision))")
        }
    }
}
