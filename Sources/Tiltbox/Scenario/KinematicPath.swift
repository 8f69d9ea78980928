/// What a path does after its last keyframe or the end of its curve (`path.repeat`).
public enum PathRepeat: String, Sendable, Equatable, CaseIterable {
    /// Hold the last pose.
    case none
    /// Start again from the first pose.
    case loop
    /// Run back to the start, then forwards again.
    case pingpong
}

/// How a body on a `bezierPath` turns (`path.rotationMode`, like `CAKeyframeAnimation.rotationMode`).
public enum PathRotationMode: String, Sendable, Equatable, CaseIterable {
    /// Keep the body's angle.
    case none
    /// Follow the path's tangent (`kCAAnimationRotateAuto`).
    case auto
    /// The tangent plus π (`kCAAnimationRotateAutoReverse`).
    case autoReverse
}

/// One pose keyframe of a kinematic body's path.
public struct PoseKeyframe: Sendable, Equatable {
    /// Seconds from the start of the run (of the cycle, when the path repeats).
    public var t: Double
    /// The body's position at `t`, world units.
    public var position: Vec2
    /// The body's angle at `t`, radians, counter-clockwise. Default 0.
    public var angle: Double
    /// Shapes the segment that ends at this keyframe (ignored on the first keyframe);
    /// the same vocabulary as tilt keyframes.
    public var curve: TimingCurve

    /// Creates a pose keyframe; the default curve `.linear` blends straight from the previous one.
    public init(t: Double, position: Vec2, angle: Double = 0, curve: TimingCurve = .linear) {
        self.t = t
        self.position = position
        self.angle = angle
        self.curve = curve
    }
}

/// The pose of a kinematic body over time (`bodies[i].path`, docs/formats.md §5).
public enum KinematicPath: Sendable, Equatable {
    /// Keyframes of position and angle, interpolated by each keyframe's curve.
    case keyframes([PoseKeyframe], repeat: PathRepeat)
    /// A cubic Bézier path `[P0, C1, C2, P1, C1, C2, P2, ...]` travelled at constant
    /// speed along its arc length in `duration` seconds (Core Animation's `paced` mode).
    case bezier(points: [Vec2], duration: Double, rotationMode: PathRotationMode, repeat: PathRepeat)
}
