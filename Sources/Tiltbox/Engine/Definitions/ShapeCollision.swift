/// Which shapes a shape collides with (`cpShapeFilter`): two shapes collide unless they
/// share a non-zero `group`, or either's `categories` has no bit in common with the other's `mask`.
public struct ShapeFilter: Sendable, Equatable {
    /// `0` is no group; shapes of one non-zero group never collide with each other.
    public var group: UInt64
    /// The categories the shape belongs to (32 bits).
    public var categories: UInt32
    /// The categories the shape collides with (32 bits).
    public var mask: UInt32

    /// Chipmunk's default filter (`CP_SHAPE_FILTER_ALL`): no group, every category, every mask bit.
    public static let all = ShapeFilter(group: 0, categories: .max, mask: .max)

    /// Creates a filter; the defaults are Chipmunk's (`CP_SHAPE_FILTER_ALL`).
    public init(group: UInt64 = 0, categories: UInt32 = .max, mask: UInt32 = .max) {
        self.group = group
        self.categories = categories
        self.mask = mask
    }
}

/// A shape's collision keys (docs/formats.md §8, "Shape keys"): each is set on the shape
/// only when the scenario gives it, so a shape without them is built exactly as before.
public struct ShapeCollision: Sendable, Equatable {
    /// `cpShapeSetFilter` when given.
    public var filter: ShapeFilter?
    /// `cpShapeSetSensor(shape, true)` when true: the shape detects overlaps and never collides.
    public var sensor: Bool
    /// The `collisionType` name as written, `nil` when absent.
    public var collisionTypeName: String?
    /// `cpShapeSetCollisionType` when non-zero: the name's number, 1, 2, 3… in order of first
    /// appearance in the file (0, Chipmunk's default, when absent).
    public var collisionType: UInt
    /// `cpShapeSetSurfaceVelocity` when given (world units per second).
    public var surfaceVelocity: Vec2?

    /// Whether Chipmunk pushes two shapes with these keys apart when they overlap: neither is
    /// a sensor, and their filters do not reject each other (`cpShapeFilterReject`: a shared
    /// non-zero group, or one's categories outside the other's mask).
    public static func collide(_ a: ShapeCollision, _ b: ShapeCollision) -> Bool {
        if a.sensor || b.sensor { return false }
        let fa = a.filter ?? .all, fb = b.filter ?? .all
        if fa.group != 0 && fa.group == fb.group { return false }
        return (fa.categories & fb.mask) != 0 && (fb.categories & fa.mask) != 0
    }

    /// No key given: the shape keeps every Chipmunk default.
    public static let none = ShapeCollision()

    /// Creates the keys of one shape; every default leaves the shape as Chipmunk makes it.
    public init(
        filter: ShapeFilter? = nil, sensor: Bool = false, collisionTypeName: String? = nil, collisionType: UInt = 0,
        surfaceVelocity: Vec2? = nil
    ) {
        self.filter = filter
        self.sensor = sensor
        self.collisionTypeName = collisionTypeName
        self.collisionType = collisionType
        self.surfaceVelocity = surfaceVelocity
    }
}
