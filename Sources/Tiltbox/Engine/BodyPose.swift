import Foundation

/// Where a body is: its origin in world units and its angle in radians
/// (counter-clockwise), as a trace record's `x`, `y` and `angle` give them.
///
/// One type for every pose: a record's body, a kinematic path's value at a time
/// (`KinematicPathTrack.pose(at:)`), a shape placed for drawing.
public struct BodyPose: Sendable, Equatable {
    /// The body's origin (`cpBodyGetPosition`), world units.
    public var position: Vec2
    /// Radians, counter-clockwise.
    public var angle: Double

    /// A pose at `position` turned by `angle`.
    public init(position: Vec2, angle: Double) {
        self.position = position
        self.angle = angle
    }

    /// The world point of a point in the body's coordinates (Chipmunk's `cpBodyLocalToWorld`).
    public func world(_ local: Vec2) -> Vec2 {
        let c = cos(angle), s = sin(angle)
        return Vec2(position.x + local.x * c - local.y * s, position.y + local.x * s + local.y * c)
    }

    /// The body's coordinates of a world point (Chipmunk's `cpBodyWorldToLocal`).
    public func local(_ world: Vec2) -> Vec2 {
        let c = cos(angle), s = sin(angle)
        let d = world - position
        return Vec2(d.x * c + d.y * s, -d.x * s + d.y * c)
    }
}
