import Testing

@_spi(Tools) @testable import Tiltbox

/// The shape keys of docs/formats.md §8 read from a file: where each lands, and how
/// `collisionType` names are numbered.
@Suite struct ShapeKeyLoaderTests {
    /// `bodies` before `walls`, `crates` and `segments` in the file, so the numbering
    /// follows the text, not the order the loader reads the keys in.
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]},
         "bodies": [{"id": "b", "position": [100, 100],
                     "shapes": [{"circle": {"radius": 5}, "mass": 1, "collisionType": "ball",
                                 "filter": {"group": 4503599627370496, "categories": 6, "mask": 0}},
                                {"box": {"size": [4, 4]}, "mass": 1, "collisionType": "crate", "sensor": true}]}],
         "walls": {"collisionType": "wall", "surfaceVelocity": [1, 2]},
         "crates": [{"id": "c", "position": [200, 100], "collisionType": "crate", "filter": {"mask": 3}},
                    {"id": "d", "position": [300, 100]}],
         "segments": [{"from": [0, 50], "to": [100, 50], "collisionType": "ball", "sensor": false}]}
        """#

    @Test func collisionTypesAreNumberedInOrderOfFirstAppearanceInTheFile() throws {
        let scenario = try loadScenario(Self.text)
        #expect(scenario.bodies[0].shapes.map(\.collision.collisionType) == [1, 2])
        #expect(scenario.walls.collision.collisionType == 3)
        #expect(scenario.crates.map(\.collision.collisionType) == [2, 0])
        #expect(scenario.segments[0].collision.collisionType == 1)
        #expect(scenario.allSegments.map(\.collision.collisionType) == [3, 3, 3, 3, 1])
    }

    @Test func eachKeyLandsOnItsShapeAndAbsentKeysStayUnset() throws {
        let scenario = try loadScenario(Self.text)
        let ball = scenario.bodies[0].shapes[0].collision
        #expect(ball.filter == ShapeFilter(group: 1 << 52, categories: 6, mask: 0))
        #expect(!ball.sensor && ball.surfaceVelocity == nil)
        #expect(scenario.bodies[0].shapes[1].collision.sensor)
        #expect(scenario.bodies[0].shapes[1].collision.filter == nil)
        #expect(scenario.walls.collision.surfaceVelocity == Vec2(1, 2))
        #expect(scenario.crates[0].collision.filter == ShapeFilter(group: 0, categories: .max, mask: 3))
        #expect(scenario.crates[1].collision == .none)
        #expect(scenario.crates[0].definition.shapes[0].collision.filter?.mask == 3)
    }

    @Test func aGroupJustBelowTwoToThe63IsAccepted() throws {
        // 2^63 − 1024, the largest double below 2^63.
        let text = #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]},
             "crates": [{"id": "c", "position": [200, 100], "filter": {"group": 9223372036854774784}}]}
            """#
        #expect(try loadScenario(text).crates[0].collision.filter?.group == 9_223_372_036_854_774_784)
    }
}
