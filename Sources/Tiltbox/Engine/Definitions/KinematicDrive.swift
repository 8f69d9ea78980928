/// What a kinematic body is set to before one physics step: the path's pose at the
/// step's time and the velocities that carry it to the next step's pose.
public struct KinematicDrive: Sendable, Equatable {
    /// The path's position at the step's time (`cpBodySetPosition`).
    public var position: Vec2
    /// The path's angle at the step's time, radians (`cpBodySetAngle`).
    public var angle: Double
    /// World units/s.
    public var velocity: Vec2
    /// Radians/s.
    public var angularVelocity: Double
}

/// Something that sets a kinematic body's pose and velocities before each physics step
/// (a scenario's `path`, evaluated). The engine asks it once per step, in body order.
public protocol KinematicDriver: Sendable {
    /// The pose at t = n·dt and the velocities that carry the body to the pose at (n + 1)·dt.
    func drive(step n: Int, dt: Double) -> KinematicDrive
}
