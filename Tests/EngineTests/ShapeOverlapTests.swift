import Testing

@_spi(Tools) @testable import Tiltbox

/// `ShapeOverlap.depth`: Chipmunk's narrow phase (`cpShapesCollide`) on shapes placed at two
/// poses, for every shape kind, counting only the pairs Chipmunk would push apart.
@Suite struct ShapeOverlapTests {
    static func side(_ geometry: ShapeGeometry, at position: Vec2, angle: Double = 0, collision: ShapeCollision = .none)
        -> ShapeOverlap.Side
    {
        ShapeOverlap.Side(
            shapes: [ShapeSpec(geometry: geometry, mass: .mass(1), collision: collision)],
            pose: BodyPose(position: position, angle: angle))
    }

    static let circle = ShapeGeometry.circle(radius: 8, offset: .zero)
    static let box = ShapeGeometry.box(size: Vec2(20, 20), radius: 0)

    /// Whether `value` is `expected` within rounding.
    static func near(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) < 1e-9 }

    @Test func twoCirclesOverlapByTheirRadiiLessTheirDistance() {
        let depth = ShapeOverlap.depth(Self.side(Self.circle, at: Vec2(0, 0)), Self.side(Self.circle, at: Vec2(10, 0)))
        #expect(Self.near(depth, 6), "depth \(depth)")
        let offset = ShapeOverlap.depth(
            Self.side(.circle(radius: 8, offset: Vec2(5, 0)), at: Vec2(0, 0)), Self.side(Self.circle, at: Vec2(20, 0)))
        #expect(Self.near(offset, 1), "an offset circle: depth \(offset)")
    }

    @Test func touchingOrApartIsNoOverlap() {
        #expect(ShapeOverlap.depth(Self.side(Self.circle, at: .zero), Self.side(Self.circle, at: Vec2(16, 0))) == 0)
        #expect(ShapeOverlap.depth(Self.side(Self.circle, at: .zero), Self.side(Self.circle, at: Vec2(40, 0))) == 0)
        #expect(ShapeOverlap.depth(Self.side(Self.box, at: .zero), Self.side(Self.box, at: Vec2(20, 0))) == 0)
        #expect(ShapeOverlap.depth(Self.side(Self.box, at: .zero), Self.side(Self.box, at: Vec2(20, 20))) == 0)
    }

    @Test func boxesOverlapAlongTheirShallowestAxisAndTheirAngleCounts() {
        let depth = ShapeOverlap.depth(Self.side(Self.box, at: .zero), Self.side(Self.box, at: Vec2(15, 3)))
        #expect(Self.near(depth, 5), "depth \(depth)")
        // Turned by 45°, the box reaches 10·√2 along x: it overlaps a box 20 away by 10·√2 − 10.
        let turned = ShapeOverlap.depth(
            Self.side(Self.box, at: .zero, angle: Double.pi / 4), Self.side(Self.box, at: Vec2(20, 0)))
        #expect(abs(turned - (10 * 2.0.squareRoot() - 10)) < 1e-6, "turned: depth \(turned)")
        #expect(ShapeOverlap.depth(Self.side(Self.box, at: .zero), Self.side(Self.box, at: Vec2(20.5, 0))) == 0)
    }

    @Test func polygonsAndSegmentsAreMeasuredToo() {
        let triangle = ShapeGeometry.polygon(vertices: [Vec2(-10, 0), Vec2(10, 0), Vec2(0, 10)], radius: 0)
        let onTriangle = ShapeOverlap.depth(Self.side(triangle, at: .zero), Self.side(Self.circle, at: Vec2(0, 16)))
        #expect(Self.near(onTriangle, 2), "a circle on the triangle's apex: depth \(onTriangle)")
        let segment = ShapeGeometry.segment(from: Vec2(-20, 0), to: Vec2(20, 0), radius: 1)
        let onSegment = ShapeOverlap.depth(Self.side(segment, at: .zero), Self.side(Self.circle, at: Vec2(3, 5)))
        #expect(Self.near(onSegment, 4), "a circle on the segment: depth \(onSegment)")
        let parallel = ShapeOverlap.depth(Self.side(segment, at: .zero), Self.side(segment, at: Vec2(0, 1.5)))
        #expect(Self.near(parallel, 0.5), "two parallel segments: depth \(parallel)")
        let boxOnSegment = ShapeOverlap.depth(Self.side(segment, at: .zero), Self.side(Self.box, at: Vec2(0, 8)))
        #expect(Self.near(boxOnSegment, 3), "a box on the segment: depth \(boxOnSegment)")
    }

    @Test func shapesThatCoincideOverlapByTheirSmallerExtent() {
        // Chipmunk 7.0.3 gives two coinciding polygons contacts without a normal: measured by
        // the bounding boxes' overlap along the shallower axis.
        let rectangle = ShapeGeometry.box(size: Vec2(40, 10), radius: 0)
        let pose = BodyPose(position: Vec2(240, 200), angle: 0.3)
        let side = ShapeOverlap.Side(shapes: [ShapeSpec(geometry: rectangle)], pose: pose)
        let turned = ShapeOverlap.depth(side, side)
        #expect(turned > 10 && turned < 40, "depth \(turned)")
        #expect(
            ShapeOverlap.depth(Self.side(rectangle, at: Vec2(240, 200)), Self.side(rectangle, at: Vec2(240, 200))) == 10
        )
        #expect(ShapeOverlap.depth(Self.side(Self.box, at: .zero), Self.side(Self.box, at: .zero)) == 20)
        #expect(ShapeOverlap.depth(Self.side(Self.circle, at: .zero), Self.side(Self.circle, at: .zero)) == 16)
    }

    @Test func pairsChipmunkNeverPushesApartAreNotCounted() {
        let grouped = ShapeCollision(filter: ShapeFilter(group: 3))
        #expect(
            ShapeOverlap.depth(
                Self.side(Self.circle, at: .zero, collision: grouped),
                Self.side(Self.circle, at: Vec2(4, 0), collision: grouped)) == 0)
        let sensor = ShapeCollision(sensor: true)
        #expect(
            ShapeOverlap.depth(
                Self.side(Self.circle, at: .zero, collision: sensor), Self.side(Self.circle, at: Vec2(4, 0))) == 0)
        let masked = ShapeCollision(filter: ShapeFilter(categories: 1, mask: 2))
        #expect(
            ShapeOverlap.depth(
                Self.side(Self.circle, at: .zero, collision: masked),
                Self.side(Self.circle, at: Vec2(4, 0), collision: masked)) == 0)
        // Another group, or no group on one side: they collide.
        #expect(
            Self.near(
                ShapeOverlap.depth(
                    Self.side(Self.circle, at: .zero, collision: grouped), Self.side(Self.circle, at: Vec2(4, 0))), 12))
    }

    @Test func aBodyOfSeveralShapesCountsItsDeepestCollidingPair() {
        // A sensor circle overlapping deeply and a box overlapping by 2: the box's 2 is the depth.
        let body = ShapeOverlap.Side(
            shapes: [
                ShapeSpec(geometry: .circle(radius: 30, offset: .zero), collision: ShapeCollision(sensor: true)),
                ShapeSpec(geometry: Self.box),
            ], pose: BodyPose(position: .zero, angle: 0))
        let depth = ShapeOverlap.depth(body, Self.side(Self.box, at: Vec2(18, 0)))
        #expect(Self.near(depth, 2), "depth \(depth)")
    }
}
