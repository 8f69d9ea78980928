/// Everything the engine needs to build a `World`: the space's settings, its static
/// segments, its bodies in trace order and its joints in creation order. Plain data,
/// validated before it gets here (Debian's debug build of Chipmunk aborts on bad values).
public struct WorldDefinition: Sendable {
    /// Gravity, broad phase and the space settings to apply.
    public var settings: WorldSettings
    /// Static segments on the space's static body, in creation order.
    public var segments: [SegmentSpec]
    /// Every body, in trace order (a scenario's crates, then its `bodies`).
    public var bodies: [BodyDefinition]
    /// Joints, created in listed order after every body has its initial pose.
    public var joints: [JointSpec]
    /// The fixed step length in seconds (for the kinematic bodies' step-0 poses and the
    /// spatial hash's guard).
    public var dt: Double
    /// The collision rules' handlers, in file order (docs/formats.md §8); none by default.
    public var collisionWatches: [CollisionWatch]

    /// Creates a definition from its parts.
    public init(
        settings: WorldSettings, segments: [SegmentSpec], bodies: [BodyDefinition], joints: [JointSpec],
        dt: Double, collisionWatches: [CollisionWatch] = []
    ) {
        self.collisionWatches = collisionWatches
        self.settings = settings
        self.segments = segments
        self.bodies = bodies
        self.joints = joints
        self.dt = dt
    }
}
