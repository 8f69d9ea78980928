/// One body of the scenario's `bodies` list: any Chipmunk body with one or more shapes.
///
/// In trace order bodies come after every crate. A dynamic body's mass and moment are
/// what Chipmunk computes from its shapes, added in listed order.
public struct BodySpec: Sendable, Equatable {
    /// Unique across crates and bodies; never `"static"`, which names the world in joints.
    public var id: String
    /// `bodies[i].type`: dynamic (the default), kinematic or static.
    public var type: BodyType
    /// The body's origin in world units (`cpBodySetPosition`).
    public var position: Vec2
    /// Radians, counter-clockwise. Default 0.
    public var angle: Double
    /// Initial linear velocity, world units per second (`cpBodySetVelocity`). Default zero.
    public var velocity: Vec2
    /// Initial angular velocity, radians per second, counter-clockwise (`cpBodySetAngularVelocity`). Default 0.
    public var angularVelocity: Double
    /// At least one.
    public var shapes: [ShapeSpec]
    /// For kinematic bodies only: the pose over time, applied before every step.
    public var path: KinematicPath?
    /// A dynamic body's own `mass`, `moment` and `centerOfGravity` (docs/formats.md §8); `nil`:
    /// the mass comes from the shapes.
    public var givenMass: GivenMass?

    /// Creates a body with the scenario's defaults: dynamic, at angle 0, at rest, with no path.
    public init(
        id: String, type: BodyType = .dynamic, position: Vec2, angle: Double = 0, velocity: Vec2 = .zero,
        angularVelocity: Double = 0, shapes: [ShapeSpec], path: KinematicPath? = nil, givenMass: GivenMass? = nil
    ) {
        self.givenMass = givenMass
        self.id = id
        self.type = type
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.shapes = shapes
        self.path = path
    }
}

extension BodySpec {
    /// The mass, moment of inertia and centre of gravity (body coordinates) Chipmunk will
    /// give this body when its shapes are added (`ShapeSpec.massProperties(of:)`).
    /// Meaningful for dynamic bodies (Chipmunk gives kinematic and static ones infinite mass).
    public var massProperties: (mass: Double, moment: Double, centreOfGravity: Vec2) {
        if let givenMass { return (givenMass.mass, givenMass.moment, givenMass.centreOfGravity) }
        return ShapeSpec.massProperties(of: shapes)
    }

    /// The engine's definition of this body: built from its shapes; its `path` (if any) is
    /// made ready to evaluate (`KinematicPathTrack`) when a world is built from it.
    public var definition: BodyDefinition {
        var makeDriver: (@Sendable () -> any KinematicDriver)?
        if let path {
            let bodyAngle = angle
            makeDriver = { KinematicPathTrack(path, bodyAngle: bodyAngle) }
        }
        return BodyDefinition(
            id: id, type: type, position: position, angle: angle, velocity: velocity,
            angularVelocity: angularVelocity, shapes: shapes, makeDriver: makeDriver, givenMass: givenMass)
    }
}
