/// A snapshot of one body's state: pose and velocities, in world units, radians and seconds.
///
/// Its values are the trace fields in `BodyStateLayout` order:
/// `x`, `y`, `angle`, `vx`, `vy`, `w`.
public struct BodyState: Hashable, Sendable {
    /// Position of the body (its centre of gravity), in world units (`cpBodyGetPosition`).
    public var position: Vec2
    /// Rotation in radians, counter-clockwise (`cpBodyGetAngle`).
    public var angle: Double
    /// Linear velocity in world units per second (`cpBodyGetVelocity`).
    public var velocity: Vec2
    /// Angular velocity in radians per second, counter-clockwise positive (`cpBodyGetAngularVelocity`).
    public var angularVelocity: Double

    /// Creates a state from its parts, in the units of the properties above.
    public init(position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double) {
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
    }

    /// The names of the fields, in trace order (`BodyStateLayout.fieldNames`).
    public static var fieldNames: [String] { BodyStateLayout.fieldNames }

    /// The six fields in trace order.
    public var fields: [Double] {
        [position.x, position.y, angle, velocity.x, velocity.y, angularVelocity]
    }

    /// Builds a state from six values in trace order (`x, y, angle, vx, vy, w`).
    public init(fields f: some Collection<Double>) {
        precondition(f.count == BodyStateLayout.count, "a body state has \(BodyStateLayout.count) fields")
        var i = f.startIndex
        func next() -> Double { defer { i = f.index(after: i) }; return f[i] }
        let x = next(), y = next(), a = next(), vx = next(), vy = next(), w = next()
        self.init(position: Vec2(x, y), angle: a, velocity: Vec2(vx, vy), angularVelocity: w)
    }
}
