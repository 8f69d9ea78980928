/// One static segment (a wall, a ramp, a shelf).
public struct SegmentSpec: Sendable, Equatable {
    /// One end, world coordinates.
    public var from: Vec2
    /// The other end, world coordinates; never equal to `from`.
    public var to: Vec2
    /// Half thickness in world units. Default 1.
    public var radius: Double
    /// `cpShapeSetFriction`. Default 0.8.
    public var friction: Double
    /// `cpShapeSetElasticity`. Default 0.3.
    public var elasticity: Double
    /// Filter, sensor, collision type and surface velocity (docs/formats.md §8). Default: none.
    public var collision: ShapeCollision

    /// Creates a segment on the space's static body (`cpSegmentShapeNew`), with the scenario defaults.
    public init(
        from: Vec2, to: Vec2, radius: Double = 1, friction: Double = 0.8, elasticity: Double = 0.3,
        collision: ShapeCollision = .none
    ) {
        self.collision = collision
        self.from = from
        self.to = to
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
    }
}
