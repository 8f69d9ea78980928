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
    /// Filter, sensor, collision type and surface velocity (docs/formats.md §8). Default: none.
    public var collision: ShapeCollision

    /// Creates a shape; friction and elasticity default to 0.7 and 0.3, the values crates use.
    public init(
        geometry: ShapeGeometry, mass: ShapeMass? = nil, friction: Double = 0.7, elasticity: Double = 0.3,
        collision: ShapeCollision = .none
    ) {
        self.collision = collision
        self.geometry = geometry
        self.mass = mass
        self.friction = friction
        self.elasticity = elasticity
    }
}

extension ShapeSpec {
    /// The distance from `centre` (in their body's coordinates) to the farthest point of `shapes`.
    static func reach(of shapes: [ShapeSpec], around centre: Vec2) -> Double {
        func length(_ q: Vec2) -> Double {
            let p = q - centre
            return (p.x * p.x + p.y * p.y).squareRoot()
        }
        var farthest = 0.0
        for shape in shapes {
            switch shape.geometry {
            case .circle(let radius, let offset): farthest = max(farthest, length(offset) + radius)
            case .box(let size, let radius):
                for corner in [
                    Vec2(size.x / 2, size.y / 2), Vec2(-size.x / 2, size.y / 2), Vec2(size.x / 2, -size.y / 2),
                    Vec2(-size.x / 2, -size.y / 2),
                ] {
                    farthest = max(farthest, length(corner) + radius)
                }
            case .polygon(let vertices, let radius): for p in vertices { farthest = max(farthest, length(p) + radius) }
            case .segment(let from, let to, let radius):
                farthest = max(farthest, length(from) + radius, length(to) + radius)
            }
        }
        return farthest
    }

    /// The bounding box of `shapes` in their body's coordinates (radii included), as
    /// `(min, max)` corners.
    static func bounds(of shapes: [ShapeSpec]) -> (min: Vec2, max: Vec2) {
        var lo = Vec2(Double.infinity, Double.infinity), hi = Vec2(-Double.infinity, -Double.infinity)
        func add(_ p: Vec2, _ r: Double) {
            lo = Vec2(min(lo.x, p.x - r), min(lo.y, p.y - r))
            hi = Vec2(max(hi.x, p.x + r), max(hi.y, p.y + r))
        }
        for shape in shapes {
            switch shape.geometry {
            case .circle(let radius, let offset): add(offset, radius)
            case .box(let size, let radius):
                add(Vec2(-size.x / 2, -size.y / 2), radius)
                add(Vec2(size.x / 2, size.y / 2), radius)
            case .polygon(let vertices, let radius): for p in vertices { add(p, radius) }
            case .segment(let from, let to, let radius): add(from, radius); add(to, radius)
            }
        }
        return (lo, hi)
    }
}
