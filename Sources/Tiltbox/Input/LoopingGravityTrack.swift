/// Repeats another track every `period` seconds: a few seconds of keyframes rocking a
/// box for an hour. Time is folded with `truncatingRemainder`, so the value at `t` is
/// the base track's value at `t mod period`, the same on every run.
public struct LoopingGravityTrack: GravityTrack {
    public let base: any GravityTrack
    public let period: Double

    public init(base: any GravityTrack, period: Double) {
        precondition(period > 0 && period.isFinite)
        self.base = base
        self.period = period
    }

    public func gravity(at t: Double) -> Vec2 {
        base.gravity(at: t.truncatingRemainder(dividingBy: period))
    }
}
