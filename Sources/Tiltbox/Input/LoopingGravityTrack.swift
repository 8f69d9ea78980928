/// Repeats another track every `period` seconds: a few seconds of keyframes rocking a
/// box for an hour. Time is folded with `truncatingRemainder`, so the value at `t` is
/// the base track's value at `t mod period`, the same on every run.
public struct LoopingGravityTrack: GravityTrack {
    /// The track that is repeated; for `t ≥ 0` only its values on [0, `period`) are used.
    public let base: any GravityTrack
    /// The loop length in seconds: positive and finite.
    public let period: Double

    /// Creates a track repeating `base` every `period` seconds.
    ///
    /// - Precondition: `period` is positive and finite.
    public init(base: any GravityTrack, period: Double) {
        precondition(period > 0 && period.isFinite)
        self.base = base
        self.period = period
    }

    /// The base track's value at `t` folded into one period (`t.truncatingRemainder(dividingBy: period)`).
    public func gravity(at t: Double) -> Vec2 {
        base.gravity(at: t.truncatingRemainder(dividingBy: period))
    }
}
