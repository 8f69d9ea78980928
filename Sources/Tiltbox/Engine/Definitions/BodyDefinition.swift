/// Everything the engine needs to build one body (in the spirit of Box2D's `b2BodyDef`):
/// plain data, validated before it gets here. A scenario's crates and its `bodies` both
/// become body definitions, crates first (the trace body order).
public struct BodyDefinition: Sendable {
    /// How the body gets its mass and moment, which also fixes the order of Chipmunk's calls.
    public enum Build: Sendable, Equatable {
        /// A crate: `cpBodyNew(mass, cpMomentForBox(mass, w, h))`, its pose and velocities,
        /// one `cpBoxShapeNew(body, w, h, 0)` with friction and elasticity, then
        /// `cpSpaceAddBody` and `cpSpaceAddShape`. Its centre of gravity is its origin.
        case crate(mass: Double, size: Vec2)
        /// Any body the way pymunk builds one: `cpBodyNew(0, 0)` (dynamic),
        /// `cpBodyNewKinematic` or `cpBodyNewStatic`, its pose and velocities,
        /// `cpSpaceAddBody`; then each shape in listed order (friction, elasticity,
        /// `cpShapeSetMass` or `cpShapeSetDensity` for a dynamic body, `cpSpaceAddShape`),
        /// which makes Chipmunk accumulate the mass from the shapes.
        case fromShapes
    }

    /// Unique across the world's bodies; never `"static"`, which names the world in joints.
    public var id: String
    /// Dynamic, kinematic or static (a crate is dynamic).
    public var type: BodyType
    /// The body's origin in world units (`cpBodySetPosition`).
    public var position: Vec2
    /// Radians, counter-clockwise (`cpBodySetAngle`).
    public var angle: Double
    /// World units per second (`cpBodySetVelocity`).
    public var velocity: Vec2
    /// Radians per second, counter-clockwise (`cpBodySetAngularVelocity`).
    public var angularVelocity: Double
    /// At least one, in its body's coordinates (a crate's is one box of radius 0).
    public var shapes: [ShapeSpec]
    /// How the body is built.
    public var build: Build
    /// For a kinematic body that follows a path: makes what sets its pose before each step.
    /// Called once per world built from the definition (`Body.init`), so a definition costs
    /// nothing to make: a Bézier path's arc-length table is built there, not here.
    public var makeDriver: (@Sendable () -> any KinematicDriver)?
    /// For a dynamic body built `fromShapes` that gives its own mass and moment: then
    /// `cpBodyNew(mass, moment)` and `cpBodySetCenterOfGravity` replace `cpBodyNew(0, 0)`,
    /// and its shapes carry no mass. `nil`: the mass comes from the shapes.
    public var givenMass: GivenMass?

    /// A body built from its shapes (`Build.fromShapes`), or with `givenMass` its own mass and moment.
    public init(
        id: String, type: BodyType, position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double,
        shapes: [ShapeSpec], makeDriver: (@Sendable () -> any KinematicDriver)? = nil, givenMass: GivenMass? = nil
    ) {
        self.givenMass = givenMass
        self.id = id
        self.type = type
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.shapes = shapes
        self.build = .fromShapes
        self.makeDriver = makeDriver
    }

    /// A crate: a dynamic box of `size` and `mass` whose moment is the box formula (`Build.crate`).
    public init(
        crate id: String, position: Vec2, size: Vec2, angle: Double, mass: Double, friction: Double,
        elasticity: Double, velocity: Vec2, angularVelocity: Double, collision: ShapeCollision = .none
    ) {
        self.id = id
        self.type = .dynamic
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.shapes = [
            ShapeSpec(
                geometry: .box(size: size, radius: 0), friction: friction, elasticity: elasticity, collision: collision)
        ]
        self.build = .crate(mass: mass, size: size)
        self.makeDriver = nil
        self.givenMass = nil
    }

    /// `crate` for a body built the crate way, else `body`: how messages name it.
    public var kind: String {
        switch build {
        case .crate: return "crate"
        case .fromShapes: return "body"
        }
    }

    /// The distance from the body's origin to the farthest point of its shapes: any
    /// rotation of the body fits in a circle of this radius around its position
    /// (a crate's is half its diagonal).
    public var reach: Double {
        switch build {
        case .crate(_, let size): return size.length / 2
        case .fromShapes: return ShapeSpec.reach(of: shapes, around: .zero)
        }
    }

    /// The width and height of the bounding box of its shapes in its own coordinates, radii
    /// included (the trace header's `sizes` entry): a crate's is its size.
    public var localSize: Vec2 {
        switch build {
        case .crate(_, let size): return size
        case .fromShapes:
            let bounds = ShapeSpec.bounds(of: shapes)
            return Vec2(bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y)
        }
    }

    /// The mass Chipmunk gives the body: a crate's given mass, a dynamic body's given mass or
    /// accumulated from its shapes (`ShapeSpec.massProperties(of:)`); infinity for kinematic and static bodies.
    public var mass: Double {
        switch build {
        case .crate(let mass, _): return mass
        case .fromShapes: return type == .dynamic ? dynamicMassProperties.mass : .infinity
        }
    }

    /// A dynamic body's mass, moment and centre of gravity (body coordinates) built
    /// `fromShapes`: `givenMass` when given, else accumulated from its shapes.
    public var dynamicMassProperties: (mass: Double, moment: Double, centreOfGravity: Vec2) {
        if let givenMass { return (givenMass.mass, givenMass.moment, givenMass.centreOfGravity) }
        return ShapeSpec.massProperties(of: shapes)
    }
}
