/// Maps simulated time to the gravity vector applied to the world, in units/s².
///
/// The stepper samples a track at `t = n·dt` for physics step `n`, never at frame
/// times, so a run is a pure function of the scenario and the track.
public protocol GravityTrack: Sendable {
    /// The gravity at simulated time `t` seconds. Must be finite for every `t ≥ 0`.
    func gravity(at t: Double) -> Vec2
}

/// A track that never changes: the scenario's `world.gravity` when there is no tilt input.
public struct ConstantGravity: GravityTrack {
    /// The gravity at every time, world units/s².
    public let value: Vec2

    /// Creates a track that returns `value` at every time.
    public init(_ value: Vec2) {
        self.value = value
    }

    /// Returns `value`, whatever `t`.
    public func gravity(at t: Double) -> Vec2 { value }
}
