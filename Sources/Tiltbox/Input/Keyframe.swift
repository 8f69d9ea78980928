/// One keyframe of a `tiltbox-tilt/1` file, already in world units.
public struct Keyframe: Sendable, Equatable {
    /// Seconds.
    public var t: Double
    /// Gravity at `t`, world units/s².
    public var gravity: Vec2
    /// Shapes the segment that ends at this keyframe (ignored on the first keyframe).
    public var curve: TimingCurve

    /// Creates a keyframe. `gravity` is in world units/s², already scaled by g; the default
    /// curve `.linear` blends straight from the previous keyframe.
    public init(t: Double, gravity: Vec2, curve: TimingCurve = .linear) {
        self.t = t
        self.gravity = gravity
        self.curve = curve
    }
}
