internal import CChipmunk

/// Creating Chipmunk shapes from `ShapeGeometry`, and the mass properties Chipmunk gives them.
enum ChipmunkShape {
    /// A new shape of `geometry` on `body` (`nil`: a shape on no body, only to read its
    /// mass properties). The geometry must be validated: finite, radii ≥ 0, a circle's
    /// radius > 0, a box's size > 0, a polygon convex and counter-clockwise.
    /// The corresponding Chipmunk calls are `cpCircleShapeNew`, `cpBoxShapeNew`,
    /// `cpPolyShapeNew` (identity transform) and `cpSegmentShapeNew`.
    static func make(_ geometry: ShapeGeometry, body: UnsafeMutablePointer<cpBody>?) -> UnsafeMutablePointer<cpShape> {
        let shape: UnsafeMutablePointer<cpShape>?
        switch geometry {
        case .circle(let radius, let offset):
            shape = cpCircleShapeNew(body, radius, cpv(offset.x, offset.y))
        case .box(let size, let radius):
            shape = cpBoxShapeNew(body, size.x, size.y, radius)
        case .polygon(let vertices, let radius):
            let points = vertices.map { cpv($0.x, $0.y) }
            shape = points.withUnsafeBufferPointer { buffer in
                cpPolyShapeNew(body, Int32(buffer.count), buffer.baseAddress, cpTransformIdentity, radius)
            }
        case .segment(let from, let to, let radius):
            shape = cpSegmentShapeNew(body, cpv(from.x, from.y), cpv(to.x, to.y), radius)
        }
        guard let shape else { preconditionFailure("Chipmunk could not allocate a shape") }
        EngineCensus.shapeCreated()
        return shape
    }

    /// Sets the collision keys the scenario gave, in this order: `cpShapeSetFilter`,
    /// `cpShapeSetSensor`, `cpShapeSetCollisionType`, `cpShapeSetSurfaceVelocity`; a key
    /// left at its default makes no call, so a shape without them is built as it always was.
    static func apply(_ collision: ShapeCollision, to shape: UnsafeMutablePointer<cpShape>) {
        if let filter = collision.filter {
            cpShapeSetFilter(
                shape, cpShapeFilter(group: cpGroup(filter.group), categories: filter.categories, mask: filter.mask))
        }
        if collision.sensor { cpShapeSetSensor(shape, 1) }
        if collision.collisionType != 0 { cpShapeSetCollisionType(shape, cpCollisionType(collision.collisionType)) }
        if let v = collision.surfaceVelocity { cpShapeSetSurfaceVelocity(shape, cpv(v.x, v.y)) }
    }
}

/// What Chipmunk 7.0.3 knows about a shape's mass before it has any: its area, its moment
/// of inertia per unit mass about its centre of gravity, and that centre (body
/// coordinates), the `cpShapeMassInfo` it computes when the shape is created. The loader
/// uses it to refuse, before any body is built, a dynamic body whose mass or moment would
/// be zero (Chipmunk aborts: "Body's mass and moment must be positive to simulate").
public struct ShapeMassInfo: Sendable, Equatable {
    /// `cpShapeGetArea` (`cpAreaForCircle`, `cpAreaForPoly`, `cpAreaForSegment`).
    public var area: Double
    /// The moment for a mass of 1 about the centre of gravity (`cpMomentForCircle(1, 0, r, 0)`,
    /// `cpMomentForPoly(1, …, −centroid, r)`, `cpMomentForBox(1, |b − a| + 2r, 2r)` for a segment).
    public var unitMoment: Double
    /// `cpShapeGetCenterOfGravity`, in body coordinates.
    public var centreOfGravity: Vec2
    /// For polygons and boxes: the vertices Chipmunk kept (`cpPolyShapeGetCount`, after its
    /// convex hull); `nil` for circles and segments.
    public var vertexCount: Int?

    /// Reads the mass information of a body-less shape of `geometry` made and freed at once.
    /// `geometry` must be validated as for `ChipmunkShape.make`.
    public init(_ geometry: ShapeGeometry) {
        let shape = ChipmunkShape.make(geometry, body: nil)
        let info = shape.pointee.massInfo
        area = info.area
        unitMoment = info.i
        centreOfGravity = Vec2(info.cog.x, info.cog.y)
        switch geometry {
        case .box, .polygon: vertexCount = Int(cpPolyShapeGetCount(shape))
        case .circle, .segment: vertexCount = nil
        }
        cpShapeFree(shape)
        EngineCensus.shapeFreed()
    }

    /// The mass and moment of a dynamic body whose shapes, in the order they were added,
    /// carry `mass` (0 for a shape without mass), accumulated exactly as
    /// `cpBodyAccumulateMassFromShapes` does: over the body's shape list, which
    /// `cpBodyAddShape` builds by prepending, so the last shape added comes first; shapes of
    /// zero mass are skipped; each further shape adds its own moment and the parallel-axis
    /// term, and moves the centre of gravity.
    public static func accumulate(_ shapes: [(info: ShapeMassInfo, mass: Double)]) -> (
        mass: Double, moment: Double, centreOfGravity: Vec2
    ) {
        var m = 0.0, i = 0.0, cog = Vec2.zero
        for (info, mass) in shapes.reversed() where mass > 0 {
            let sum = m + mass
            let dx = cog.x - info.centreOfGravity.x, dy = cog.y - info.centreOfGravity.y
            i += mass * info.unitMoment + (dx * dx + dy * dy) * (mass * m) / sum
            let t = mass / sum
            cog = Vec2(cog.x * (1 - t) + info.centreOfGravity.x * t, cog.y * (1 - t) + info.centreOfGravity.y * t)
            m = sum
        }
        return (m, i, cog)
    }
}

extension ShapeSpec {
    /// The mass, moment of inertia and centre of gravity (body coordinates) Chipmunk will
    /// give a dynamic body when `shapes` are added to it, computed before any body exists:
    /// each shape's mass is its `mass`, or its `density` × its area (`cpShapeSetDensity`), or 0.
    public static func massProperties(of shapes: [ShapeSpec]) -> (mass: Double, moment: Double, centreOfGravity: Vec2) {
        ShapeMassInfo.accumulate(
            shapes.map { shape in
                let info = ShapeMassInfo(shape.geometry)
                switch shape.mass {
                case .mass(let m)?: return (info, m)
                case .density(let d)?: return (info, d * info.area)
                case nil: return (info, 0)
                }
            })
    }
}
