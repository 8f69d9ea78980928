/// One keyframe of a `tiltbox-tilt/1` file, already in world units.
public struct Keyframe: Sendable, Equatable {
    /// Seconds.
    public var t: Double
    /// Gravity at `t`, world units/s².
    public var gravity: Vec2
    /// Shapes the segment that ends at this keyframe (ignored on the first keyframe).
    public var curve: TimingCurve

    public init(t: Double, gravity: Vec2, curve: TimingCurve = .linear) {
        self.t = t
        self.gravity = gravity
        self.curve = curve
    }
}
