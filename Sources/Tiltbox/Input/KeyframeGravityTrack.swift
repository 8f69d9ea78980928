/// A gravity track that eases between keyframes (`tiltbox-tilt/1`).
///
/// Between keyframes k and k+1 the value is `gₖ + (gₖ₊₁ − gₖ)·curveₖ₊₁(u)` with
/// `u = (t − tₖ)/(tₖ₊₁ − tₖ)`: the curve of a keyframe shapes the segment ending at it.
/// Before the first keyframe and after the last the end values hold. Two keyframes
/// at the same time make a jump; from that time on the later one applies.
public struct KeyframeGravityTrack: GravityTrack {
    public let keyframes: [Keyframe]

    /// - Precondition: `keyframes` is non-empty and sorted by time, with finite values
    ///   (the keyframe file loader checks this and reports errors with their index).
    public init(keyframes: [Keyframe]) {
        precondition(!keyframes.isEmpty, "a keyframe track needs at least one keyframe")
        precondition(zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.t <= $1.t },
                     "keyframes must be sorted by time")
        self.keyframes = keyframes
    }

    public func gravity(at t: Double) -> Vec2 {
        if t.isNaN { return keyframes[0].gravity }
        var low = 0, high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid].t <= t { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return keyframes[0].gravity }
        if low == keyframes.count { return keyframes[low - 1].gravity }
        let start = keyframes[low - 1], end = keyframes[low]
        let u = (t - start.t) / (end.t - start.t)   // end.t > t ≥ start.t
        return start.gravity + (end.gravity - start.gravity) * end.curve.value(at: u)
    }
}
