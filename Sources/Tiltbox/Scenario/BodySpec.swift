/// How Chipmunk moves a body (`bodies[i].type`).
public enum BodyType: String, Sendable, Hashable, CaseIterable {
    /// Moved by forces and contacts (`cpBodyNew(0, 0)`, mass and moment from its shapes).
    case dynamic
    /// Moved only by its velocity or its `path`, unaffected by forces (`cpBodyNewKinematic`).
    case kinematic
    /// Never moves (`cpBodyNewStatic`).
    case `static`
}

/// The geometry of one shape, in its body's coordinates (docs/formats.md §5).
public enum ShapeGeometry: Sendable, Hashable {
    /// `cpCircleShapeNew(body, radius, offset)`.
    case circle(radius: Double, offset: Vec2)
    /// `cpBoxShapeNew(body, width, height, radius)`: a box centred on the body's origin,
    /// its corners rounded by `radius`.
    case box(size: Vec2, radius: Double)
    /// `cpPolyShapeNew(body, count, vertices, identity, radius)`: convex, counter-clockwise.
    case polygon(vertices: [Vec2], radius: Double)
    /// `cpSegmentShapeNew(body, from, to, radius)`.
    case segment(from: Vec2, to: Vec2, radius: Double)

    /// The name of the kind, as the scenario and trace header key it: `circle`, `box`,
    /// `polygon` or `segment`.
    public var kind: String {
        switch self {
        case .circle: return "circle"
        case .box: return "box"
        case .polygon: return "polygon"
        case .segment: return "segment"
        }
    }
}

/// Where a shape's mass comes from: given, or its area times a density.
public enum ShapeMass: Sendable, Equatable {
    /// `cpShapeSetMass`.
    case mass(Double)
    /// `cpShapeSetDensity` (mass per unit area).
    case density(Double)
}

/// One shape of a body (`bodies[i].shapes[j]`).
public struct ShapeSpec: Sendable, Equatable {
    /// The shape's kind and size, in its body's coordinates (the `circle`, `box`, `polygon` or `segment` key).
    public var geometry: ShapeGeometry
    /// `nil` for shapes of kinematic and static bodies, which carry no mass.
    public var mass: ShapeMass?
    /// Default 0.7, as for crates.
    public var friction: Double
    /// Default 0.3, as for crates.
    public var elasticity: Double

    /// Creates a shape; friction and elasticity default to 0.7 and 0.3, the values crates use.
    public init(geometry: ShapeGeometry, mass: ShapeMass? = nil, friction: Double = 0.7, elasticity: Double = 0.3) {
        self.geometry = geometry
        self.mass = mass
        self.friction = friction
        self.elasticity = elasticity
    }
}

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

    /// Creates a body with the scenario's defaults: dynamic, at angle 0, at rest, with no path.
    public init(id: String, type: BodyType = .dynamic, position: Vec2, angle: Double = 0, velocity: Vec2 = .zero,
                angularVelocity: Double = 0, shapes: [ShapeSpec], path: KinematicPath? = nil) {
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
